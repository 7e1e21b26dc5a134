"""The incremental leaderboard (per-canh tallies merged into the stored board) gives exactly the
full rebuild's table: after random ván, corrections, withdrawals, new rounds, closed tables and
concurrent recomputes."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connections

from scoring.models import Van
from scoring.services.sittings import van_record
from tests.tournaments.conftest import seat_names
from tournaments.models import Event, Leaderboard, Registration, SeatTally, Table, TableSitting, dump_json
from tournaments.selectors.standings import compute_standings
from tournaments.services import incremental
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.events import check_in, registration_add, registration_withdraw
from tournaments.services.leaderboard import rebuild_leaderboard, update_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.tables import table_close
from tournaments.services.van import event_van_correct, event_van_record

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]  # and on the embedded default (SQLite)

CUOC = [["tom"], ["leo"], ["chi_nay"], ["tom", "leo"]]


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def _full(event) -> tuple[list, list, int]:
    fresh = compute_standings(Event.objects.get(pk=event.pk))
    return fresh.players, fresh.teams, fresh.van_count


def _stored(event) -> tuple[list, list, int]:
    board = Leaderboard.objects.get(event=event)
    return board.rows, board.teams, board.van_count


def _assert_same_as_full(event) -> None:
    done = update_leaderboard(event_id=event.pk)
    assert done.ledger_seq == Event.objects.get(pk=event.pk).ledger_seq
    assert _stored(event) == _full(event)


def _random_van(rng: random.Random, table: Table) -> None:
    table.refresh_from_db()
    names = seat_names(table)
    seq = table.sitting.van.filter(is_current=True).count() + 1
    record = (
        {"result": "hoa"} if rng.random() < 0.15 else {"winner": rng.choice(names), "cuoc": rng.choice(CUOC)}
    )
    event_van_record(table=table, seq=seq, record=record, idempotency_key=None)


def _random_correction(rng: random.Random, event) -> None:
    van = rng.choice(
        list(
            Van.objects.filter(
                sitting__event_canh__event=event, is_current=True, sitting__ended_at__isnull=True
            ).order_by("pk")
        )
    )
    names = list(van.sitting.seats.order_by("position").values_list("name", flat=True))
    event_van_correct(
        van=van,
        record={"winner": rng.choice(names), "cuoc": rng.choice(CUOC)},
        reason="ghi nhầm",
        corrected_by=None,
        idempotency_key=None,
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_equals_full_after_random_changes(seated, seed) -> None:
    event, _tables = seated
    rng = random.Random(seed)
    rebuild_leaderboard(event_id=event.pk)  # the base board
    for step in range(14):
        roll = rng.random()
        open_tables = list(Table.objects.filter(event=event, closed_at__isnull=True))
        has_van = TableSitting.objects.filter(
            event=event, sitting__van__isnull=False, sitting__ended_at__isnull=True
        ).exists()
        if roll < 0.55 and open_tables:
            _random_van(rng, rng.choice(open_tables))
        elif roll < 0.7 and has_van:
            _random_correction(rng, event)
        elif roll < 0.78:
            reg = registration_add(
                event=event, name=f"Người mới {seed}-{step}", team=rng.choice(["Giáp Nam", ""])
            )
            check_in(registration=reg)
        elif roll < 0.84:
            registration_withdraw(registration=rng.choice(list(Registration.objects.filter(event=event))))
        elif roll < 0.92 and open_tables:
            table_close(table=rng.choice(open_tables), closed_by=None)
        else:
            round_seat(event=event, method="rotation", seed=rng.randrange(1000))
        if rng.random() < 0.6:  # sometimes several changes come in one pass
            _assert_same_as_full(event)
    _assert_same_as_full(event)
    assert Leaderboard.objects.get(event=event).built_by == "canh"


def test_only_the_changed_canh_are_rebuilt(seated, monkeypatch, django_assert_max_num_queries) -> None:
    event, (t1, t2) = seated
    for seq in (1, 2):
        _random_van(random.Random(seq), t1)
        _random_van(random.Random(seq), t2)
    rebuild_leaderboard(event_id=event.pk)
    _random_van(random.Random(5), t1)
    plan_tallies = []
    real = incremental.incremental_standings

    def spy(*, event_id):
        plan = real(event_id=event_id)
        plan_tallies.append(sorted(t.seat_id for t in plan.tallies))
        return plan

    monkeypatch.setattr(leaderboard_module, "incremental_standings", spy)
    update_leaderboard(event_id=event.pk)
    _random_van(random.Random(6), t1)
    with django_assert_max_num_queries(20):  # a fixed number, whatever the size of the event
        update_leaderboard(event_id=event.pk)
    t1_seats = sorted(t1.sitting.seats.values_list("id", flat=True))
    assert plan_tallies == [t1_seats, t1_seats]  # t2's players were never read again
    assert (
        SeatTally.objects.filter(
            seat_id__in=t1_seats, stamp=TableSitting.objects.get(sitting=t1.sitting).changed_seq
        ).count()
        == 5
    )
    assert _stored(event) == _full(event)


def test_a_van_written_outside_the_tournaments_services_is_picked_up(
    seated, django_capture_on_commit_callbacks
) -> None:
    event, (t1, _t2) = seated
    rebuild_leaderboard(event_id=event.pk)
    with_signal = seat_names(t1)
    with django_capture_on_commit_callbacks(execute=True):  # the scorekeeper's own page, straight to scoring:
        van_record(
            sitting=t1.sitting,
            seq=1,
            record={"winner": with_signal[2], "cuoc": ["chi_nay"]},
            idempotency_key=None,
        )  # the sitting_changed hook stamps the canh after commit
    _assert_same_as_full(event)
    assert {r["name"]: r["points"] for r in Leaderboard.objects.get(event=event).rows}[with_signal[2]] == 144


def test_without_a_base_or_with_too_many_changes_the_full_rebuild_runs(seated, monkeypatch) -> None:
    event, (t1, t2) = seated
    _random_van(random.Random(1), t1)
    assert update_leaderboard(event_id=event.pk).built_by == "full"  # a new board has no base
    monkeypatch.setattr(incremental, "MAX_CANH", 1)
    _random_van(random.Random(2), t1)
    _random_van(random.Random(3), t2)
    assert update_leaderboard(event_id=event.pk).built_by == "full"
    _random_van(random.Random(4), t2)
    assert update_leaderboard(event_id=event.pk).built_by == "canh"
    assert _stored(event) == _full(event)


def test_nothing_changed_writes_nothing(seated) -> None:
    event, (t1, _t2) = seated
    _random_van(random.Random(1), t1)
    first = rebuild_leaderboard(event_id=event.pk)
    again = update_leaderboard(event_id=event.pk)
    assert not again.written and again.version == first.version


@pytest.mark.django_db(transaction=True)
def test_concurrent_incremental_recomputes_store_one_consistent_result(seated) -> None:
    event, (t1, t2) = seated
    rebuild_leaderboard(event_id=event.pk)
    rng = random.Random(9)
    for _ in range(3):
        _random_van(rng, t1)
        _random_van(rng, t2)
    before = Leaderboard.objects.get(event=event).version
    barrier = threading.Barrier(8)
    results = []

    def run() -> None:
        try:
            barrier.wait()
            results.append(update_leaderboard(event_id=event.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8 and {r.built_by for r in results} == {"canh"}
    assert sum(r.written for r in results) == 1
    assert Leaderboard.objects.get(event=event).version == before + 1
    assert _stored(event) == _full(event)
    _random_van(rng, t1)  # the tallies the racing passes stored are right for the next pass too
    _assert_same_as_full(event)


def test_rows_are_stored_as_the_same_text_whether_encoded_whole_or_row_by_row(seated) -> None:
    event, (t1, _t2) = seated
    for seq in (1, 2, 3):
        _random_van(random.Random(seq), t1)
    rows = compute_standings(Event.objects.get(pk=event.pk)).players
    whole = dump_json(rows)
    text, tails = incremental.rows_json(rows=rows, known={}, skip=())
    assert text == whole
    rows[0]["rank"], rows[1]["tied"] = 7, True  # a new rank reuses the text after it
    assert incremental.rows_json(rows=rows, known=tails, skip=())[0] == dump_json(rows)
