"""A finished event accepts no more changes: every write path answers 409 with a Vietnamese reason.

Finding 7 of issue 20: after the organiser finished an event (its board presented as final), a PIN
device's API still recorded ván (201). Finishing now makes every canh of the event final in the
ledger (``Sitting.final_at``, set under each sitting's row lock): the scoring services refuse to
record, correct, confirm, reject or settle there, and the tournaments and console services refuse
registrations, check-ins, rounds, substitutions, tokens, table changes and signals. Tried here by
the API, the pages and the console, by a PIN device, a scorekeeper, the Trung Quân and the organiser;
the ledger must not move.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Posting, Van
from tests.reliability.probe_setup import Small, small_event
from tournaments.models import Registration, ScorekeeperToken, Table

pytestmark = pytest.mark.django_db

FINAL = "chính thức"  # "kết quả đã chốt chính thức", "đã chốt kết quả chính thức"


def _key() -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex}


def _finished() -> tuple[Small, Any, Client, Client]:
    """A Tổ Tôm Điếm event (confirmation on), its table run on the console by the organiser, one
    ván recorded by a PIN device, then finished by the organiser."""
    from tournaments.console.services import ensure_catalogue, table_open

    small = small_event(prefix="F", game="to-tom-diem", confirmation_required=True)
    ensure_catalogue()
    festival = table_open(
        name="Sân đình", event_table=small.table, trung_quan=small.organiser, created_by=small.organiser
    )
    phone = small.pin_client()
    seats = small.seat_names()
    first = phone.post(
        f"/api/v1/sittings/{small.sitting.pk}/van",
        {"seq": 1, "winner": seats[0], "cuoc": ["tom"]},
        content_type="application/json",
        headers=_key(),
    )
    assert first.status_code == 201, first.content
    organiser = Client()
    organiser.force_login(small.organiser)
    assert organiser.post(reverse("tournaments:finish", args=[small.event.slug])).status_code in (200, 302)
    return small, festival, phone, organiser


def _attempts(small: Small, festival: Any, phone: Client, organiser: Client) -> dict[str, Any]:
    """Every write path, as a callable answering the response."""
    pk, slug, seats = small.sitting.pk, small.event.slug, small.seat_names()
    van = {"seq": 2, "winner": seats[1], "cuoc": ["tom"]}
    reg = Registration.objects.filter(event=small.event).order_by("id").first()
    api = "/api/v1/sittings"

    def post(client: Client, url: str, data: dict[str, Any] | None = None) -> Any:
        return client.post(url, data or {}, content_type="application/json", headers=_key())

    return {
        "PIN device: API ván": lambda: post(phone, f"{api}/{pk}/van", van),
        "PIN device: table page ván": lambda: phone.post(
            small.table_url(),
            {"winner": seats[1], "cuoc": ["tom"], "seq": 2, "canh": pk, "key": uuid.uuid4().hex},
        ),
        "PIN device: sổ điểm page ván": lambda: phone.post(
            reverse("scoring:van_record", args=[pk]),
            {"winner": seats[1], "cuoc": ["tom"], "seq": 2, "key": uuid.uuid4().hex},
        ),
        "organiser: API ván": lambda: post(organiser, f"{api}/{pk}/van", van),
        "organiser: API correction": lambda: post(
            organiser,
            f"{api}/{pk}/van/1/correct",
            {"winner": seats[2], "cuoc": ["tom"], "reason": "ghi nhầm"},
        ),
        "organiser: page correction": lambda: organiser.post(
            reverse("scoring:van_correct", args=[pk, 1]),
            {"winner": seats[2], "cuoc": ["tom"], "reason": "ghi nhầm", "key": uuid.uuid4().hex},
        ),
        "organiser: API confirmation": lambda: post(organiser, f"{api}/{pk}/van/1/confirm"),
        "organiser: page confirmation": lambda: organiser.post(
            reverse("scoring:van_confirm", args=[pk, 1]),
            {"key": uuid.uuid4().hex},
            headers={"HX-Request": "true"},
        ),
        "organiser: API rejection": lambda: post(organiser, f"{api}/{pk}/van/1/reject", {"reason": "sai"}),
        "organiser: API settle-up": lambda: post(organiser, f"{api}/{pk}/settle-up"),
        "organiser: page settle-up": lambda: organiser.post(
            reverse("scoring:settle_up", args=[pk]), {"key": uuid.uuid4().hex, "confirm": "1"}
        ),
        "Trung Quân: console ván": lambda: organiser.post(
            reverse("console:van_record", args=[festival.pk]),
            {"winner": seats[1], "cuoc": ["tom"], "seq": 2, "canh": pk, "key": uuid.uuid4().hex},
        ),
        "Trung Quân: console signal": lambda: organiser.post(
            reverse("console:signal", args=[festival.pk]), {"seat": 3, "signal": "tung-tung"}
        ),
        "Trung Quân: API signal": lambda: post(
            organiser, f"/api/v1/tables/{festival.pk}/signals", {"seat": 3, "signal": "tung-tung"}
        ),
        "Trung Quân: new ván": lambda: organiser.post(reverse("console:van_start", args=[festival.pk])),
        "Trung Quân: nọc": lambda: organiser.post(
            reverse("console:noc", args=[festival.pk]), {"action": "draw"}
        ),
        "Trung Quân: dealer": lambda: organiser.post(
            reverse("console:dealer", args=[festival.pk]), {"seat": 2}
        ),
        "organiser: register": lambda: organiser.post(
            reverse("tournaments:register", args=[slug]), {"name": "Người mới", "team": "Giáp Bắc"}
        ),
        "organiser: withdraw": lambda: organiser.post(reverse("tournaments:withdraw", args=[slug, reg.pk])),
        "organiser: seat a round": lambda: organiser.post(
            reverse("tournaments:seat_round", args=[slug]), {"method": "random", "remainder": "bye"}
        ),
        "player: own check-in link": lambda: Client().post(
            reverse("tournaments:check_in_link", args=[slug, reg.token])
        ),
    }


def test_every_write_path_of_a_finished_event_is_refused(probe: Any) -> None:
    small, festival, phone, organiser = _finished()
    before = (Van.objects.count(), Posting.objects.count())
    for what, attempt in _attempts(small, festival, phone, organiser).items():
        answer = attempt()
        body = answer.content.decode()
        probe.check(
            answer.status_code == 409 and FINAL in body,
            f"{what}: {answer.status_code} {re.findall(r'role=.alert.[^>]*>([^<]+)', body) or body[:160]!r}",
        )
    probe.check((Van.objects.count(), Posting.objects.count()) == before, "the ledger moved after the finish")


def test_organiser_table_actions_are_refused_with_the_reason(probe: Any) -> None:
    """Actions that answer by going back to the table page (302) say why and change nothing."""
    small, _festival, _phone, organiser = _finished()
    slug, table = small.event.slug, small.table
    tokens = ScorekeeperToken.objects.filter(table=table).count()
    for what, url in (
        ("new token", reverse("tournaments:table_token_new", args=[slug, table.pk])),
        ("close the table", reverse("tournaments:table_close", args=[slug, table.pk])),
    ):
        answer = organiser.post(url, follow=True)
        probe.check(FINAL in answer.content.decode(), f"{what}: not told the event is finished")
    probe.check(ScorekeeperToken.objects.filter(table=table).count() == tokens, "a token was issued")
    probe.check(
        Table.objects.get(pk=table.pk).closed_at is None, "the table was closed (settled) after the finish"
    )


def test_before_the_finish_the_same_paths_write(probe: Any) -> None:
    """The control: the PIN device's ván is accepted while the event runs."""
    small = small_event(prefix="G")
    phone = small.pin_client()
    seats = small.seat_names()
    answer = phone.post(
        f"/api/v1/sittings/{small.sitting.pk}/van",
        {"seq": 1, "winner": seats[0], "cuoc": ["tom"]},
        content_type="application/json",
        headers=_key(),
    )
    probe.check(answer.status_code == 201, f"a running event refused a ván: {answer.status_code}")
