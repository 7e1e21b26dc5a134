"""Ratings from the club's ván (OpenSkill Plackett–Luce): who is rated and how, rebuilt from scratch
to the same values, the incremental update equal to a rebuild (after new ván, after a correction,
after a ván in an older canh), results from an older snapshot never stored, seating by rating."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import call_command
from openskill.models import PlackettLuce

from scoring.models import ClubRating, ClubRatingBoard
from scoring.services.ratings import MODEL, rebuild_ratings, update_ratings
from scoring.services.sittings import van_correct
from tests.book.conftest import FIVE_A, FIVE_B, canh, season
from tests.factories import new_key, record_all

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


def stored(club: Any) -> dict[str, tuple[float, float, int, list[Any]]]:
    return {
        r.player.name: (r.mu, r.sigma, r.van, r.history)
        for r in ClubRating.objects.filter(club=club).select_related("player")
    }


def test_a_win_is_one_winner_ahead_of_four_tied_losers_and_a_draw_changes_nothing(club: Any) -> None:
    canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}, {"result": "hoa"}])
    rebuild_ratings(club_id=club.pk)
    model = PlackettLuce()
    [[w], *losers] = model.rate([[model.rating()] for _ in range(5)], ranks=[1, 2, 2, 2, 2])
    ratings = stored(club)
    assert ratings["Cụ Tư"][:3] == (w.mu, w.sigma, 1)
    assert {ratings[n][:3] for n in FIVE_A[1:]} == {(losers[0][0].mu, losers[0][0].sigma, 1)}
    assert ratings["Cụ Tư"][0] > 25 > ratings["Bác Năm"][0]


def test_a_folded_player_is_not_rated_for_that_van(club: Any) -> None:
    canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"], "chiu": ["Cô Tám"]}])
    rebuild_ratings(club_id=club.pk)
    assert "Cô Tám" not in stored(club) and stored(club)["Bác Năm"][2] == 1


def test_a_phom_ranking_rates_first_to_last(club: Any) -> None:
    from scoring.services.sittings import sitting_open

    sitting = sitting_open(
        game="phom",
        rules="phom",
        mode="quang",
        players=["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy"],
        club=club,
        idempotency_key=new_key(),
    ).obj
    record_all(sitting, [{"ranks": ["Chú Sáu", "Cụ Tư", "Anh Bảy", "Bác Năm"]}])
    rebuild_ratings(club_id=club.pk)
    mu = {name: r[0] for name, r in stored(club).items()}
    assert mu["Chú Sáu"] > mu["Cụ Tư"] > mu["Anh Bảy"] > mu["Bác Năm"]


def test_ratings_rebuild_from_scratch_to_the_same_values(club: Any, organiser: Any) -> None:
    season(club, organiser)
    rebuild_ratings(club_id=club.pk)
    first = stored(club)
    ClubRating.objects.filter(club=club).delete()
    ClubRatingBoard.objects.filter(club=club).delete()
    call_command("rebuild_ratings", club.slug, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert stored(club) == first and len(first) == 6
    assert all(len(h) >= 1 for *_x, h in first.values())


def test_the_incremental_update_equals_a_rebuild(club: Any, organiser: Any) -> None:
    world = season(club, organiser)
    update_ratings(club_id=club.pk)  # no board yet: a full build
    assert ClubRatingBoard.objects.get(club=club).built_by == "full"
    latest = world["canh"]["next_year"]
    record_all(latest, [{"winner": "Bác Năm", "cuoc": ["tom"]}, {"winner": "Ông Chín", "cuoc": ["leo"]}])
    done = update_ratings(club_id=club.pk)
    assert (done.written, done.built_by) == (True, "incremental")
    incremental = stored(club)
    rebuild_ratings(club_id=club.pk, force=True)
    assert stored(club) == incremental


@pytest.mark.parametrize("change", ["correction", "older canh"])
def test_a_change_before_the_last_van_folded_rebuilds(club: Any, organiser: Any, change: str) -> None:
    world = season(club, organiser)
    update_ratings(club_id=club.pk)
    if change == "correction":
        van = world["canh"]["winter"].van.get(seq=1, is_current=True)
        van_correct(
            van=van,
            record={"winner": "Cô Tám", "cuoc": ["tom"]},
            reason="Nhầm",
            corrected_by=organiser,
            idempotency_key=new_key(),
        )
    else:  # a ván in a canh that is not the latest: its place is in the middle of the order
        record_all(world["canh"]["autumn"], [{"winner": "Cô Tám", "cuoc": ["chi_nay"]}])
    done = update_ratings(club_id=club.pk)
    assert (done.written, done.built_by) == (True, "full")
    updated = stored(club)
    rebuild_ratings(club_id=club.pk, force=True)
    assert stored(club) == updated


def test_a_result_from_an_older_snapshot_is_never_stored(club: Any) -> None:
    sitting = canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}])
    rebuild_ratings(club_id=club.pk)
    record_all(sitting, [{"winner": "Bác Năm", "cuoc": ["tom"]}])
    rebuild_ratings(club_id=club.pk)
    newer = stored(club)
    board = ClubRatingBoard.objects.get(club=club)
    from scoring.services import ratings

    state, seen, ids, _rated = ratings.compute(club_id=club.pk)
    stale = ratings._store(
        club.pk, state, seen=seen - 1, ids=ids[:-1], full=True, force=True, started=0.0, say=lambda _m: None
    )
    assert not stale.written and ClubRatingBoard.objects.get(club=club).version == board.version
    assert stored(club) == newer


def test_ratings_history_has_one_point_per_canh(club: Any) -> None:
    canh(
        club,
        dt.date(2025, 3, 1),
        FIVE_A,
        [{"winner": "Cụ Tư", "cuoc": ["tom"]}, {"winner": "Cụ Tư", "cuoc": ["leo"]}],
    )
    canh(club, dt.date(2025, 3, 8), FIVE_B, [{"winner": "Ông Chín", "cuoc": ["tom"]}])
    rebuild_ratings(club_id=club.pk)
    history = stored(club)["Cụ Tư"][3]
    assert [h[1] for h in history] == ["2025-03-01", "2025-03-08"]
    assert history[-1][2:] == list(stored(club)["Cụ Tư"][:2])


def test_the_model_is_plackett_luce_with_openskill_s_defaults() -> None:
    assert type(MODEL).__name__ == "PlackettLuce" and (MODEL.mu, round(MODEL.sigma, 4)) == (25.0, 8.3333)
