"""The club's ratings are updated by a real Celery worker after each ván (coalesced), and equal a
rebuild from scratch: Redis broker and the PostgreSQL test database, and (the SQLite pass of
``make test``) kombu's filesystem broker and the SQLite test database, as ``make run``."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import ClubRating, ClubRatingBoard, Van
from scoring.services import ratings
from scoring.services.sittings import sitting_open, van_correct
from tests.factories import new_key, record_all
from tests.tournaments.conftest import celery_worker_process, wait_for  # noqa: F401  (the worker fixture)

pytestmark = [pytest.mark.celery, pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

FIVE = ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám"]


def rebuilt(club_id: int) -> dict[int, tuple[float, float, int, list[Any]]]:
    state, _seen, _ids, _rated = ratings.compute(club_id=club_id)
    return {p: (mu, sigma, int(n), state.history[p]) for p, (mu, sigma, n) in state.ratings.items()}


def stored(club_id: int) -> dict[int, tuple[float, float, int, list[Any]]]:
    return {
        r.player_id: (r.mu, r.sigma, r.van, r.history) for r in ClubRating.objects.filter(club_id=club_id)
    }


def caught_up(club_id: int) -> Any:
    """The board once it holds every ván row of the club (what the worker last stored)."""
    board = ClubRatingBoard.objects.filter(club_id=club_id).first()
    total = Van.objects.filter(sitting__club_id=club_id).count()
    return board if board is not None and board.seen == total else None


def test_the_worker_s_ratings_equal_a_rebuild_after_van_and_a_correction(
    celery_worker_process: Any,  # noqa: F811
    django_user_model: Any,
) -> None:
    from scoring.services.roles import club_open

    boss = django_user_model.objects.create_user("chu-so-celery")
    club = club_open(name="Câu lạc bộ Celery", kind="clb", slug="clb-celery", organiser=boss).obj
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        players=FIVE,
        club=club,
        created_by=boss,
        idempotency_key=new_key(),
    ).obj
    record_all(
        sitting,
        [
            {"winner": "Cụ Tư", "cuoc": ["tom"]},
            {"winner": "Bác Năm", "cuoc": ["leo"]},
            {"result": "hoa"},
            {"winner": "Cụ Tư", "cuoc": ["thap_dieu"]},
        ],
    )
    wait_for(lambda: caught_up(club.pk), timeout=30)
    assert stored(club.pk) == rebuilt(club.pk) and len(stored(club.pk)) == 5
    record_all(sitting, [{"winner": "Cô Tám", "cuoc": ["chi_nay"]}])  # the next ván: continued, not rebuilt
    board = wait_for(lambda: caught_up(club.pk), timeout=30)
    assert board.built_by == "incremental"
    assert stored(club.pk) == rebuilt(club.pk)
    first = sitting.van.get(seq=1, is_current=True)
    van_correct(
        van=first,
        record={"winner": "Anh Bảy", "cuoc": ["tom"]},
        reason="Nhầm người ù",
        corrected_by=boss,
        idempotency_key=new_key(),
    )
    board = wait_for(lambda: caught_up(club.pk), timeout=30)
    assert board.built_by == "full" and board.failed_at is None
    assert stored(club.pk) == rebuilt(club.pk)
    assert {n for _mu, _sigma, n, _h in stored(club.pk).values()} == {4}  # four decided ván, everyone in each
