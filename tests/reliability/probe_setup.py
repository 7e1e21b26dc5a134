"""A small event for the probes: an organiser, five players seated at one table, a PIN for it.

Built through the services, like :mod:`tests.reliability.authz_world`, but one side only and cheap
enough to build in each test.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

PLAYERS = [
    ("An", "Giáp Đông"),
    ("Bình", "Giáp Đông"),
    ("Chi", "Giáp Tây"),
    ("Dũng", "Giáp Tây"),
    ("Em", "Giáp Nam"),
]
PASSWORD = "mat-khau-dai-123"


@pytest.fixture
def fast_hashes(settings: Any) -> None:
    """A fast password hasher for probes that sign in by password (PBKDF2 costs ~0.5 s a check here)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Small:
    organiser: Any
    event: Any
    table: Any
    token: Any

    @property
    def sitting(self) -> Any:
        self.table.refresh_from_db(fields=["sitting"])
        return self.table.sitting

    def seat_names(self) -> list[str]:
        return [s.name for s in self.sitting.seats.order_by("position")]

    def table_url(self) -> str:
        return f"/giai/{self.event.slug}/chieu/{self.table.pk}/"

    def pin_client(self, holder: int | None = 1) -> Client:
        """A phone that typed the table's PIN (no account), naming as its holder the player seated
        at position ``holder`` (None: naming nobody)."""
        client = Client()
        data = {"pin": self.token.pin}
        if holder is not None:
            data["holder"] = str(self.sitting.seats.get(position=holder).player_id)
        answer = client.post(f"{self.table_url()}ma-pin/", data)
        assert answer.status_code == 302, answer.status_code
        return client


def small_event(
    *,
    prefix: str = "P",
    is_public: bool = True,
    confirmation_required: bool = False,
    organiser: Any = None,
    game: str = "to-tom-5",
) -> Small:
    from tournaments.models import Table
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.rounds import round_seat
    from tournaments.services.tokens import token_issue

    if organiser is None:
        organiser = get_user_model().objects.create_user(f"btc-{prefix.lower()}", password=PASSWORD)
    event = event_create(
        name=f"Hội kín {prefix}" if not is_public else f"Hội {prefix}",
        date=dt.date(2025, 2, 3),
        game=game,
        rules="luat-2005",
        created_by=organiser,
        is_public=is_public,
        confirmation_required=confirmation_required,
        van_per_round=40,
    )
    for name, team in PLAYERS:
        check_in(registration=registration_add(event=event, name=f"{name} {prefix}", team=team))
    round_seat(event=event, method="random", seed=3)
    table = Table.objects.filter(event=event).select_related("sitting", "event").first()
    token = token_issue(table=table, label="Thư ký", created_by=organiser)
    return Small(organiser, event, table, token)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client
