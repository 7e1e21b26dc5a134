"""Helpers of the club book's tests: a club with its organiser, treasurer and members, and canh
opened on chosen days (time-machine), written only through the services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from scoring.models import Club, ClubRole, ClubRoleKind, Player, Sitting
from tests.factories import new_key, record_all

MEMBERS = ("Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám", "Ông Chín")


def at(day: dt.date, hour: int = 19) -> dt.datetime:
    """A moment of ``day`` in the site's time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)), timezone.get_default_timezone())


def canh(
    club: Club,
    day: dt.date,
    players: Sequence[str],
    records: Iterable[Mapping[str, Any]] = (),
    *,
    mode: str = "quang",
    rules: str = "luat-2005",
    by: Any = None,
    hour: int = 19,
) -> Sitting:
    """A canh of ``club`` opened on ``day`` with ``players`` (the club's, by name), its ván recorded."""
    from scoring.services.sittings import sitting_open

    with time_machine.travel(at(day, hour), tick=False):
        sitting = sitting_open(
            game="to-tom-5",
            rules=rules,
            mode=mode,
            players=list(players),
            club=club,
            created_by=by,
            idempotency_key=new_key(),
            title=f"Canh {day:%d/%m}",
        ).obj
        record_all(sitting, records)
    return sitting


@pytest.fixture
def club(django_user_model: Any) -> Club:
    from scoring.services.roles import club_open

    boss = django_user_model.objects.create_user("chu-so")
    return club_open(name="Câu lạc bộ Tổ Tôm Hà Đông", kind="clb", slug="clb-ha-dong", organiser=boss).obj


@pytest.fixture
def treasurer(django_user_model: Any, club: Club) -> Any:
    user = django_user_model.objects.create_user("thu-quy")
    ClubRole.objects.create(user=user, club=club, role=ClubRoleKind.TREASURER)
    return user


@pytest.fixture
def organiser(club: Club) -> Any:
    return ClubRole.objects.get(club=club, role=ClubRoleKind.ORGANISER).user


def member_user(django_user_model: Any, club: Club, name: str, username: str) -> Any:
    """An account linked to the club's player ``name`` (made if need be), with the player role."""
    user = django_user_model.objects.create_user(username)
    player, _ = Player.objects.get_or_create(club=club, name=name)
    player.user = user
    player.save(update_fields=["user"])
    ClubRole.objects.create(user=user, club=club, role=ClubRoleKind.PLAYER)
    return user


FIVE_A = ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám"]
FIVE_B = ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Ông Chín"]
FIVE_C = ["Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám", "Ông Chín"]


def season(club: Club, by: Any) -> dict[str, Any]:
    """A season of canh across lunar months of 2025 and 2026, with everything the book must follow:
    quăng and gom canh, a draw, a correction of a past ván (and of the ván after it), a canh settled
    by its own settle-up, a period close, and a close undone by its reversal."""
    from scoring.periods import lunar_month
    from scoring.services.closing import period_close, period_close_reverse
    from scoring.services.sittings import sitting_settle_up, van_correct

    t = "tom"
    made = {
        "tet": canh(
            club,
            dt.date(2025, 2, 1),
            FIVE_A,
            [
                {"winner": "Cụ Tư", "cuoc": [t]},
                {"winner": "Bác Năm", "cuoc": ["leo"], "discarder": "Cô Tám"},
                {"result": "hoa"},
                {"winner": "Cụ Tư", "cuoc": ["thap_dieu"]},
            ],
        ),
        "gom": canh(
            club,
            dt.date(2025, 2, 20),
            FIVE_B,
            [{"winner": "Ông Chín", "cuoc": ["chi_nay"]}, {"winner": "Anh Bảy", "cuoc": [t]}],
            mode="gom",
        ),
        "spring": canh(
            club,
            dt.date(2025, 3, 15),
            FIVE_C,
            [
                {"winner": "Chú Sáu", "cuoc": ["bach_thu"]},
                {"winner": "Chú Sáu", "cuoc": [t]},
                {"winner": "Ông Chín", "cuoc": ["leo"], "chiu": ["Anh Bảy"]},
            ],
        ),
        "settled": canh(
            club,
            dt.date(2025, 4, 2),
            FIVE_A,
            [{"winner": "Cô Tám", "cuoc": ["kinh_cu"]}, {"winner": "Bác Năm", "cuoc": [t]}],
        ),
        "summer": canh(
            club,
            dt.date(2025, 6, 10),
            FIVE_B,
            [{"winner": "Bác Năm", "cuoc": [t, "leo"]}, {"winner": "Cụ Tư", "cuoc": [t]}],
            mode="gom",
        ),
        "autumn": canh(
            club,
            dt.date(2025, 9, 5),
            FIVE_C,
            [
                {"winner": "Anh Bảy", "cuoc": ["chi_nay"]},
                {"result": "hoa"},
                {"winner": "Cô Tám", "cuoc": [t]},
            ],
        ),
        "winter": canh(
            club,
            dt.date(2026, 1, 3),
            FIVE_A,
            [{"winner": "Cụ Tư", "cuoc": ["leo"]}, {"winner": "Chú Sáu", "cuoc": ["thap_dieu"]}],
        ),
        "next_year": canh(club, dt.date(2026, 3, 1), FIVE_B, [{"winner": "Ông Chín", "cuoc": [t]}]),
    }
    # A correction in a past canh (its first ván; the later ván are re-posted).
    first = made["spring"].van.get(seq=1, is_current=True)
    van_correct(
        van=first,
        record={"winner": "Cô Tám", "cuoc": ["chi_nay"]},
        reason="Ghi nhầm người ù",
        corrected_by=by,
        idempotency_key=new_key(),
    )
    sitting_settle_up(sitting=made["settled"], settled_by=by, idempotency_key=new_key())
    # The sixth month closed and undone; the second month closed (and kept).
    undone = period_close(club=club, period=lunar_month(2025, 5), closed_by=by).obj
    period_close_reverse(close=undone, reason="Chốt nhầm tháng", reversed_by=by)
    kept = period_close(club=club, period=lunar_month(2025, 1), closed_by=by).obj
    return {"canh": made, "kept": kept, "undone": undone}
