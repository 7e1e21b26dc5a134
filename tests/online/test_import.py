"""``POST /api/v1/sittings/import``: a sitting played online, imported whole into a club or into an
event table; every ván checked first (a bad one named by number, nothing written), one
transaction, the replay's answer plus the ids, idempotent, and marked as imported in the audit."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from scoring.engine.settlement import replay
from scoring.services.rules import resolve_rules
from tests.online.conftest import bearer

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
VAN = [
    {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"},
    {"winner": "Chi", "cuoc": ["chi_nay"]},
    {"result": "hoa"},
    {"winner": "Dũng", "cuoc": ["tom", "leo"], "discarder": "Em"},
]
REPLAY = {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE, "van": VAN}


def post(client: Client, body: Any, key: str | None = None, **headers: Any) -> Any:
    return client.post(
        "/api/v1/sittings/import",
        json.dumps(body),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()),
        **headers,
    )


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def counts() -> tuple[int, int, int]:
    from scoring.models import LedgerTransaction, Sitting, Van

    return Sitting.objects.count(), Van.objects.count(), LedgerTransaction.objects.count()


def test_a_club_sitting_is_imported_whole_with_the_replay_s_answer_and_the_ids(
    club: Any, organiser: Any
) -> None:
    from scoring.models import Sitting, Van
    from scoring.selectors.ledger import balances

    answer = post(
        signed_in(organiser), {**REPLAY, "club": club.slug, "platform": "Chiếu Online", "title": "Canh 7"}
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    expected = replay(REPLAY, resolve_rules=resolve_rules)
    assert {k: body[k] for k in expected} == expected  # the replay's own answer
    sitting = Sitting.objects.get(pk=body["sitting_id"])
    assert (sitting.club_id, sitting.title, sitting.created_by_id) == (club.pk, "Canh 7", organiser.pk)
    vans = list(Van.objects.filter(sitting=sitting).order_by("seq"))
    assert body["van_ids"] == [v.pk for v in vans] and [v.seq for v in vans] == [1, 2, 3, 4]
    assert all(v.entered_by_id == organiser.pk for v in vans)
    assert balances(sitting).players == expected["balances"]
    assert (body["platform"], body["club"], body["event"], body["table_id"]) == (
        "Chiếu Online",
        club.slug,
        None,
        None,
    )


def test_a_bad_van_is_named_by_number_and_nothing_is_written(club: Any, organiser: Any) -> None:
    before = counts()
    bad = [*VAN[:2], {"winner": "Xuân", "cuoc": ["tom"]}, VAN[3]]
    answer = post(signed_in(organiser), {**REPLAY, "van": bad, "club": club.slug})
    assert answer.status_code == 422
    assert answer.json()["van"] == 3 and answer.json()["error"].startswith("Ván 3:")
    assert "Xuân" in answer.json()["error"]
    worse = [*VAN[:3], {"winner": "An", "cuoc": ["tomm"]}]
    assert post(signed_in(organiser), {**REPLAY, "van": worse, "club": club.slug}).json()["van"] == 4
    assert counts() == before


def test_a_van_the_engine_refuses_only_in_context_is_also_caught_before_writing(
    club: Any, organiser: Any
) -> None:
    """A ván that parses but cannot be settled after the ones before it (the fold, not the parse)."""
    before = counts()
    bad = [*VAN, {"winner": "An", "cuoc": ["tom"], "discarder": "An"}]
    answer = post(signed_in(organiser), {**REPLAY, "van": bad, "club": club.slug})
    assert (answer.status_code, answer.json()["van"]) == (422, 5)
    assert counts() == before


def test_a_repeat_answers_the_first_answer_and_writes_nothing(club: Any, organiser: Any) -> None:
    client, key = signed_in(organiser), str(uuid.uuid4())
    first = post(client, {**REPLAY, "club": club.slug}, key)
    after = counts()
    again = post(client, {**REPLAY, "club": club.slug}, key)
    assert (
        again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    )
    assert counts() == after
    other = post(client, {**REPLAY, "van": VAN[:2], "club": club.slug}, key)
    assert other.status_code == 422 and "van" not in other.json()


def test_bad_requests_are_400s_with_a_reason(club: Any, organiser: Any) -> None:
    client = signed_in(organiser)
    for body, words in [
        ({**REPLAY}, "'club'"),
        ({**REPLAY, "club": club.slug, "colour": "red"}, "colour"),
        ({**REPLAY, "club": "khong-co"}, "khong-co"),
        ({**REPLAY, "club": club.slug, "rules": "khong-co-luat"}, "khong-co-luat"),
        ({**REPLAY, "club": club.slug, "players": FIVE[:2]}, ""),
        ({**REPLAY, "club": club.slug, "table": 1}, "không cả hai"),
    ]:
        answer = post(client, body)
        assert answer.status_code == 400, (body, answer.content)
        assert words in answer.json()["error"]
    missing = client.post(
        "/api/v1/sittings/import", json.dumps({**REPLAY, "club": club.slug}), content_type="application/json"
    )
    assert missing.status_code == 400 and "Idempotency-Key" in missing.json()["error"]


def test_only_those_who_keep_score_in_the_club_may_import(club: Any, django_user_model: Any) -> None:
    assert post(Client(), {**REPLAY, "club": club.slug}).status_code == 401
    stranger = signed_in(django_user_model.objects.create_user("nguoi-la"))
    refused = post(stranger, {**REPLAY, "club": club.slug})
    assert refused.status_code == 403 and "Làng Đông Online" in refused.json()["error"]


def test_an_event_table_s_canh_is_filled_through_the_event_s_recording_path(
    make_event: Any, organiser: Any
) -> None:
    from tournaments.models import Event, Table, TableSitting
    from tournaments.services.rounds import round_seat

    event = make_event(van_per_round=8)
    round_seat(event=event, method="random", seed=3)
    table = Table.objects.filter(event=event).order_by("number").first()
    seats = [s.name for s in table.sitting.seats.order_by("position")]
    body = {
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        "players": seats,
        "van": [{"winner": seats[0], "cuoc": ["tom"]}, {"winner": seats[2], "cuoc": ["chi_nay"]}],
        "table": table.pk,
        "event": event.slug,
    }
    seq_before = Event.objects.get(pk=event.pk).ledger_seq
    answer = post(signed_in(organiser), body)
    assert answer.status_code == 201, answer.content
    assert (answer.json()["sitting_id"], answer.json()["table_id"], answer.json()["event"]) == (
        table.sitting_id,
        table.pk,
        event.slug,
    )
    assert (
        TableSitting.objects.get(sitting_id=table.sitting_id).changed_seq > seq_before
    )  # the board will follow
    assert (
        Event.objects.get(pk=event.pk).ledger_seq == seq_before + 2
    )  # once per ván, in the import's transaction
    again = post(signed_in(organiser), body)
    assert again.status_code == 409 and "đã có ván" in again.json()["error"]
    shuffled = {
        **body,
        "players": [*seats[1:], seats[0]],
        "table": Table.objects.filter(event=event).order_by("number").last().pk,
    }
    wrong = post(signed_in(organiser), shuffled)
    assert wrong.status_code == 400 and "người chơi theo thứ tự chỗ ngồi" in wrong.json()["error"]
    english = post(signed_in(organiser), shuffled, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 400 and english.json()["error"].startswith(
        "The imported sitting does not match the table's sitting: the players in seat order ("
    )
    too_many = {
        **body,
        "table": shuffled["table"],
        "players": [
            s.name for s in Table.objects.get(pk=shuffled["table"]).sitting.seats.order_by("position")
        ],
        "van": [{"result": "hoa"}] * 9,
    }
    refused = post(signed_in(organiser), too_many)
    assert refused.status_code == 400 and "8 ván" in refused.json()["error"]


def test_a_platform_token_imports_into_its_own_club_only_and_the_audit_says_so(
    club: Any, organiser: Any
) -> None:
    from scoring.models import Sitting
    from scoring.selectors.audit import club_audit, sitting_audit
    from scoring.services.roles import club_open
    from tournaments.online.services.tokens import token_create

    other = club_open(name="Làng Đoài", kind="lang", organiser=organiser, idempotency_key=None).obj
    _, read = token_create(label="Chiếu Online", access="doc", created_by=organiser, club=club)
    _, write = token_create(label="Chiếu Online", access="ghi", created_by=organiser, club=club)
    client = Client()
    assert post(client, {**REPLAY, "club": club.slug}, **bearer(read)).status_code == 403
    assert post(client, {**REPLAY, "club": other.slug}, **bearer(write)).status_code == 403
    answer = post(client, {**REPLAY, "club": club.slug}, **bearer(write))
    assert answer.status_code == 201 and answer.json()["platform"] == "Chiếu Online"
    sitting = Sitting.objects.get(pk=answer.json()["sitting_id"])
    trail = sitting_audit(sitting)
    imported = [e for e in trail if e.action.startswith("Nhập cả canh bài")]
    assert len(imported) == 1
    assert imported[0].action == "Nhập cả canh bài từ nền tảng Chiếu Online (4 ván)"
    assert imported[0].who == organiser.get_username() and "Chiếu Online" in imported[0].detail
    assert any(e.action.startswith("Tạo mã nền tảng Chiếu Online") for e in club_audit(club))
    page = signed_in(organiser).get(f"/so-diem/{sitting.pk}/nhat-ky/")
    assert page.status_code == 200 and "Nhập cả canh bài từ nền tảng Chiếu Online" in page.content.decode()
    english = signed_in(organiser).get(f"/en/so-diem/{sitting.pk}/nhat-ky/")
    assert "Imported the whole sitting from the platform Chiếu Online (4 ván)" in english.content.decode()
