"""Two-person confirmation, service and database: a ván entered by one person stays provisional
until someone else confirms it; the submitter can never confirm their own ván, not even with raw
SQL; one confirmed version per ván; two people confirming at once: exactly one wins."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, connections, transaction

from scoring.engine.errors import EngineError
from scoring.models import Player, Sitting, Van, VanReview, VanStatus
from scoring.selectors.ledger import sitting_history, van_list
from scoring.services.review import ReviewConflict, ReviewRefused, van_confirm, van_reject
from scoring.services.sittings import van_correct, van_record
from tests.factories import UserFactory, new_key, open_sitting
from tests.ledger.helpers import on_postgres

pytestmark = pytest.mark.django_db

TOM = {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"}
LEO = {"winner": "Bình", "cuoc": ["leo"]}


def _world() -> tuple[Sitting, Any, Any, Any]:
    """A sitting that needs confirmation, opened by its scorekeeper; An has an account."""
    keeper, player, other = (
        UserFactory(username="thu-ky"),
        UserFactory(username="an"),
        UserFactory(username="binh"),
    )
    sitting = open_sitting(needs_confirmation=True, created_by=keeper)
    Player.objects.filter(seats__sitting=sitting, name="An").update(user=player)
    Player.objects.filter(seats__sitting=sitting, name="Bình").update(user=other)
    return sitting, keeper, player, other


def _record(sitting: Sitting, seq: int, record: dict[str, Any], by: Any) -> Van:
    return van_record(sitting=sitting, seq=seq, record=record, idempotency_key=new_key(), entered_by=by).obj


def test_a_van_is_provisional_only_where_the_sitting_asks_for_confirmation() -> None:
    sitting, keeper, _player, _other = _world()
    assert _record(sitting, 1, TOM, keeper).status == VanStatus.PROVISIONAL
    plain = open_sitting()
    van = _record(plain, 1, TOM, keeper)
    assert van.status == VanStatus.NOT_NEEDED
    with pytest.raises(ReviewConflict, match="không cần xác nhận"):
        van_confirm(sitting=plain, seq=1, reviewer=UserFactory(username="ai-do"))


def test_a_seated_player_confirms_and_the_van_says_who_and_when() -> None:
    sitting, keeper, player, _other = _world()
    _record(sitting, 1, TOM, keeper)
    written = van_confirm(sitting=sitting, seq=1, reviewer=player, idempotency_key="k-1")
    van = Van.objects.get(pk=written.obj.pk)
    assert (van.status, van.confirmed_by, van.confirmed_at is not None) == (VanStatus.CONFIRMED, player, True)
    review = VanReview.objects.get()
    assert (review.van_id, review.decision, review.reviewer, review.submitter) == (
        van.pk,
        "xac_nhan",
        player,
        keeper,
    )
    shown = van_list(sitting)[0]
    assert (shown["status"], shown["confirmed_by"]) == ("xac_nhan", "an")
    assert any(h["event"] == "xac_nhan_van" and h["by"] == "an" for h in sitting_history(sitting))
    # The same request again (a double tap): the first answer, nothing written twice.
    again = van_confirm(sitting=sitting, seq=1, reviewer=player, idempotency_key="k-1")
    assert again.answer.replayed and VanReview.objects.count() == 1
    with pytest.raises(ReviewConflict, match="đã được an xác nhận"):
        van_confirm(sitting=sitting, seq=1, reviewer=player, idempotency_key="k-2")


def test_the_submitter_cannot_confirm_or_reject_their_own_van() -> None:
    sitting, keeper, _player, _other = _world()
    _record(sitting, 1, TOM, keeper)
    with pytest.raises(ReviewRefused, match="Bạn đã ghi ván 1"):
        van_confirm(sitting=sitting, seq=1, reviewer=keeper)
    with pytest.raises(ReviewRefused, match="Bạn đã ghi ván 1"):
        van_reject(sitting=sitting, seq=1, reviewer=keeper, reason="sai")
    with pytest.raises(ReviewRefused, match="Cần đăng nhập"):
        van_confirm(sitting=sitting, seq=1, reviewer=None)
    assert Van.objects.get().status == VanStatus.PROVISIONAL and not VanReview.objects.exists()


def test_a_rejection_needs_a_reason_and_the_correction_is_provisional_again() -> None:
    sitting, keeper, player, other = _world()
    _record(sitting, 1, TOM, keeper)
    with pytest.raises(EngineError, match="lý do bác"):
        van_reject(sitting=sitting, seq=1, reviewer=player, reason="  ")
    van_reject(sitting=sitting, seq=1, reviewer=player, reason="Bình ù chứ không phải An")
    shown = van_list(sitting)[0]
    assert (shown["status"], shown["rejected_reason"]) == ("bac_bo", "Bình ù chứ không phải An")
    with pytest.raises(ReviewConflict, match="đã bị bác"):
        van_confirm(sitting=sitting, seq=1, reviewer=other)
    old = Van.objects.get()
    new = van_correct(
        van=old, record=LEO, reason="Bình ù Lèo", corrected_by=keeper, idempotency_key=new_key()
    ).obj
    old.refresh_from_db()
    assert (old.status, new.status) == (VanStatus.SUPERSEDED, VanStatus.PROVISIONAL)
    van_confirm(sitting=sitting, seq=1, reviewer=player)
    assert Van.objects.get(pk=new.pk).status == VanStatus.CONFIRMED


def test_correcting_a_confirmed_van_makes_it_provisional_again() -> None:
    sitting, keeper, player, other = _world()
    _record(sitting, 1, TOM, keeper)
    _record(sitting, 2, LEO, keeper)
    van_confirm(sitting=sitting, seq=1, reviewer=player)
    van_confirm(sitting=sitting, seq=2, reviewer=other)
    old = Van.objects.get(seq=1, is_current=True)
    new = van_correct(
        van=old, record=LEO, reason="nhầm người", corrected_by=player, idempotency_key=new_key()
    ).obj
    old.refresh_from_db()
    assert (old.status, old.confirmed_by) == (
        VanStatus.SUPERSEDED,
        player,
    )  # who confirmed it stays on record
    assert new.status == VanStatus.PROVISIONAL and new.entered_by == player
    # The later ván keeps its confirmation: its record did not change (only its points were re-posted).
    assert Van.objects.get(seq=2, is_current=True).status == VanStatus.CONFIRMED
    with pytest.raises(ReviewRefused):  # the corrector entered the new version
        van_confirm(sitting=sitting, seq=1, reviewer=player)
    van_confirm(
        sitting=sitting, seq=1, reviewer=keeper
    )  # the first scorekeeper may confirm someone else's fix
    assert Van.objects.get(pk=new.pk).confirmed_by == keeper


# -- the database holds it too (raw SQL, bypassing the services) ----------------------------------------


def _raw(sql: str, params: list[Any]) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_self_confirmation() -> None:
    sitting, keeper, _player, _other = _world()
    van = _record(sitting, 1, TOM, keeper)
    with pytest.raises(IntegrityError, match="scoring_van_confirmer_not_submitter"):
        _raw(
            "UPDATE scoring_van SET status = 'xac_nhan', confirmed_by_id = entered_by_id, confirmed_at = now() "
            "WHERE id = %s",
            [van.pk],
        )
    with pytest.raises(IntegrityError, match="scoring_vanreview_not_self"):
        _raw(
            "INSERT INTO scoring_vanreview (van_id, decision, reviewer_id, submitter_id, reason, created_at) "
            "VALUES (%s, 'xac_nhan', %s, %s, '', now())",
            [van.pk, keeper.pk, keeper.pk],
        )
    with pytest.raises(IntegrityError, match="scoring_van_confirmed_has_confirmer"):
        _raw("UPDATE scoring_van SET status = 'xac_nhan' WHERE id = %s", [van.pk])
    assert Van.objects.get(pk=van.pk).status == VanStatus.PROVISIONAL


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_two_confirmed_versions_of_one_van_are_impossible() -> None:
    sitting, keeper, player, _other = _world()
    old = _record(sitting, 1, TOM, keeper)
    van_correct(van=old, record=LEO, reason="nhầm", corrected_by=keeper, idempotency_key=new_key())
    van_confirm(sitting=sitting, seq=1, reviewer=player)
    with pytest.raises(IntegrityError, match="scoring_van_one_confirmed"):
        _raw(
            "UPDATE scoring_van SET status = 'xac_nhan', confirmed_by_id = %s, confirmed_at = now() WHERE id = %s",
            [player.pk, old.pk],
        )
    assert Van.objects.filter(sitting=sitting, seq=1, status=VanStatus.CONFIRMED).count() == 1


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_a_review_can_be_neither_edited_nor_deleted() -> None:
    sitting, keeper, player, _other = _world()
    _record(sitting, 1, TOM, keeper)
    van_reject(sitting=sitting, seq=1, reviewer=player, reason="sai cước")
    review = VanReview.objects.get()
    with pytest.raises(DatabaseError):
        _raw("UPDATE scoring_vanreview SET reason = 'đúng rồi' WHERE id = %s", [review.pk])
    with pytest.raises(DatabaseError):
        _raw("DELETE FROM scoring_vanreview WHERE id = %s", [review.pk])
    assert VanReview.objects.get().reason == "sai cước"


@on_postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_person", [False, True])
def test_two_confirmations_at_once_exactly_one_wins(same_person: bool) -> None:
    sitting, keeper, player, other = _world()
    _record(sitting, 1, TOM, keeper)
    reviewers = [player, player if same_person else other]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def run(reviewer: Any) -> None:
        try:
            barrier.wait()
            van_confirm(sitting=sitting.pk, seq=1, reviewer=reviewer, idempotency_key=new_key())
            outcomes.append("ok")
        except ReviewConflict as exc:
            outcomes.append(exc.message)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(r,)) for r in reviewers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes)[-1] == "ok" and len(outcomes) == 2
    assert "đã được" in sorted(outcomes)[0] and "xác nhận rồi" in sorted(outcomes)[0]
    assert VanReview.objects.count() == 1
    van = Van.objects.get(sitting=sitting, seq=1)
    assert van.status == VanStatus.CONFIRMED and van.confirmed_by_id in {r.pk for r in reviewers}
