"""Retries are safe: a repeated key answers the first answer and writes nothing (Stripe-like);
the same key with another body is refused (422); a taken ván number is refused with the state (409)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.engine.errors import EngineError
from scoring.models import IdempotencyKey, LedgerTransaction, Player, Sitting, Van
from scoring.services.idempotency import IdempotencyMismatch
from scoring.services.sittings import SequenceConflict, sitting_settle_up, van_correct, van_record
from tests.factories import new_key, open_sitting

pytestmark = pytest.mark.django_db

TOM = {"winner": "An", "cuoc": ["tom"]}


def counts() -> tuple[int, ...]:
    return (
        Sitting.objects.count(),
        Van.objects.count(),
        LedgerTransaction.objects.count(),
        Player.objects.count(),
    )


def post(client: APIClient, url: str, body: dict[str, Any], key: str) -> Any:
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/sittings/{pk}/van", {"seq": 1, **TOM}),
        (
            "/api/v1/sittings",
            {"game": "to-tom-4", "rules": "luat-2005", "mode": "gom", "players": ["A", "B", "C", "D"]},
        ),
        ("/api/v1/players", {"name": "Cụ Tư"}),
        ("/api/v1/clubs", {"name": "Làng Mọc"}),
        ("/api/v1/sittings/{pk}/settle-up", {}),
    ],
    ids=["van", "sitting", "player", "club", "settle-up"],
)
def test_a_repeat_answers_the_first_answer_and_writes_nothing(
    keeper_api: APIClient, keeper: Any, url: str, body: dict[str, Any]
) -> None:
    client = keeper_api
    sitting = open_sitting(created_by=keeper)
    url = url.format(pk=sitting.pk)
    key = new_key()
    first = post(client, url, body, key)
    assert first.status_code in (200, 201), first.json()
    written = counts()
    again = post(client, url, body, key)
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert again["Idempotent-Replayed"] == "true"
    assert counts() == written


def test_the_same_key_with_another_body_is_refused_with_422(keeper_api: APIClient, keeper: Any) -> None:
    client = keeper_api
    sitting = open_sitting(created_by=keeper)
    key = new_key()
    assert post(client, f"/api/v1/sittings/{sitting.pk}/van", {"seq": 1, **TOM}, key).status_code == 201
    written = counts()
    other = post(
        client, f"/api/v1/sittings/{sitting.pk}/van", {"seq": 1, "winner": "Bình", "cuoc": ["tom"]}, key
    )
    assert other.status_code == 422
    assert "đã được dùng cho một yêu cầu khác" in other.json()["error"]
    # Same key on another endpoint: also another request.
    assert post(client, "/api/v1/players", {"name": "An"}, key).status_code == 422
    assert counts() == written


def test_a_taken_van_number_is_refused_with_the_current_state(keeper_api: APIClient, keeper: Any) -> None:
    client = keeper_api
    sitting = open_sitting(created_by=keeper)
    post(client, f"/api/v1/sittings/{sitting.pk}/van", {"seq": 1, **TOM}, new_key())
    clash = post(client, f"/api/v1/sittings/{sitting.pk}/van", {"seq": 1, "result": "hoa"}, new_key())
    assert clash.status_code == 409
    body = clash.json()
    assert "Ván số 1 đã được ghi" in body["error"]
    state = body["state"]
    assert (state["next_seq"], state["balances"]["An"], state["van"]["winner"]) == (2, 32, "An")
    assert Van.objects.count() == 1


def test_a_failed_write_stores_no_key_so_a_fixed_retry_may_reuse_it() -> None:
    sitting = open_sitting()
    key = new_key()
    with pytest.raises(EngineError):
        van_record(sitting=sitting, seq=1, record={"winner": "Bin"}, idempotency_key=key)
    assert not IdempotencyKey.objects.filter(key=key).exists()
    assert van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=key).obj.seq == 1


def test_services_follow_the_same_contract() -> None:
    sitting = open_sitting()
    key = new_key()
    first = van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=key)
    again = van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=key)
    assert (again.obj, again.answer.body, again.answer.replayed) == (first.obj, first.answer.body, True)
    with pytest.raises(IdempotencyMismatch):
        van_record(sitting=sitting, seq=1, record={"result": "hoa"}, idempotency_key=key)
    with pytest.raises(SequenceConflict):
        van_record(sitting=sitting, seq=1, record={"result": "hoa"}, idempotency_key=new_key())
    fix_key = new_key()
    fixed = van_correct(
        van=first.obj, record={"result": "hoa"}, reason="hòa", corrected_by=None, idempotency_key=fix_key
    )
    # Repeating the correction finds its first answer, though the version it named is superseded.
    repeat = van_correct(
        van=first.obj, record={"result": "hoa"}, reason="hòa", corrected_by=None, idempotency_key=fix_key
    )
    assert (repeat.obj, repeat.answer.replayed) == (fixed.obj, True)
    with pytest.raises(SequenceConflict, match="đã được sửa"):
        van_correct(van=first.obj, record=TOM, reason="lại", corrected_by=None, idempotency_key=new_key())


def test_a_van_repeated_after_the_table_moved_on_answers_its_first_answer() -> None:
    """A phone that lost the answer resends its ván after the next ván and after the settle-up:
    the ván's number is taken and the sitting has ended, yet the repeat answers as the first time
    (the key is looked up once the write is refused) and writes nothing."""
    sitting = open_sitting()
    key = new_key()
    first = van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=key)
    van_record(sitting=sitting, seq=2, record={"result": "hoa"}, idempotency_key=new_key())
    again = van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=key)
    assert (again.obj, again.answer.body, again.answer.replayed) == (first.obj, first.answer.body, True)
    sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key())
    written = counts()
    late = van_record(sitting=sitting, seq=1, record=TOM, idempotency_key=key)
    assert (late.obj, late.answer.body, late.answer.replayed) == (first.obj, first.answer.body, True)
    assert counts() == written
    # The same key with another ván is still refused, though the table has ended.
    with pytest.raises(IdempotencyMismatch):
        van_record(sitting=sitting, seq=3, record=TOM, idempotency_key=key)
    # A refusal without a stored key stays the refusal.
    with pytest.raises(EngineError, match="đã thanh toán và kết thúc"):
        van_record(sitting=sitting, seq=3, record=TOM, idempotency_key=new_key())
