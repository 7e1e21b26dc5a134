"""Standings rebuilt from the ledger, the versioned leaderboard, and coalesced recomputes
(here without a worker: the task body is called directly, the queue is replaced by a list)."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from scoring.services.sittings import sitting_settle_up, van_record
from tests.tournaments.conftest import record as _record
from tests.tournaments.conftest import seat_names
from tournaments.models import Event, Leaderboard, Table
from tournaments.selectors import standings as standings_module
from tournaments.selectors.standings import Line, Standings, compute_standings, rank_lines
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.leaderboard import rebuild_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.van import event_van_correct, event_van_record

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]  # and on the embedded default (SQLite)


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    calls: list[int] = []
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda event_id, **kw: calls.append(event_id))
    return calls


def _by_name(rows: list[dict]) -> dict[str, dict]:
    return {row["name"]: row for row in rows}


def test_standings_are_summed_from_the_ledger_by_player_and_team(seated) -> None:
    event, (t1, t2) = seated
    a, b = seat_names(t1)[0], seat_names(t2)[1]
    _record(t1, 1, a, ["tom"])  # 8 points from each of 4 others
    _record(t2, 1, b, ["chi_nay"])  # 36 from each of 4 others
    _record(t2, 2, b, ["tom"])  # Thông: 8 + 1 dịch ... as the engine values it
    done = rebuild_leaderboard(event_id=event.pk)
    board = Leaderboard.objects.get(event=event)
    rows = _by_name(board.rows)
    assert done.written and board.version == 1 and board.van_count == 3
    assert rows[b]["rank"] == 1 and rows[a]["rank"] == 2
    assert rows[a]["points"] == 32 and rows[a]["wins"] == 1 and rows[a]["best_win"] == 8
    assert rows[b]["wins"] == 2 and rows[b]["best_win"] == 36 and rows[b]["cuoc"] == {"chi_nay": 1, "tom": 1}
    assert rows[b]["van"] == 2 and rows[b]["per_van"] == rows[b]["points"] / 2
    assert sum(r["points"] for r in board.rows) == 0  # every point won was paid by someone
    teams = {t["name"]: t for t in board.teams}
    assert set(teams) == {"Giáp Đông", "Giáp Đoài"}
    assert sum(t["points"] for t in teams.values()) == 0
    assert teams[rows[b]["team"]]["wins"] >= 2


def test_a_correction_and_a_settle_up_leave_the_standings_right(seated) -> None:
    event, (t1, _t2) = seated
    names = seat_names(t1)
    _record(t1, 1, names[0], ["tom"])
    van = t1.sitting.van.get(seq=1)
    event_van_correct(
        van=van,
        record={"winner": names[2], "cuoc": ["chi_nay"]},
        reason="ghi nhầm người ù",
        corrected_by=None,
        idempotency_key=None,
    )
    sitting_settle_up(sitting=t1.sitting, settled_by=None, idempotency_key=None)
    rebuild_leaderboard(event_id=event.pk)
    rows = _by_name(Leaderboard.objects.get(event=event).rows)
    assert rows[names[0]]["points"] == -36 and rows[names[0]]["wins"] == 0
    assert rows[names[2]]["points"] == 144 and rows[names[2]]["cuoc"] == {"chi_nay": 1}


def test_the_ledger_number_is_bumped_with_the_van_and_rolled_back_with_it(seated, queued) -> None:
    event, (t1, _t2) = seated
    start = Event.objects.get(pk=event.pk).ledger_seq
    assert start == 10  # one per registration: the standings list every registered player
    _record(t1, 1, seat_names(t1)[0], ["tom"])
    assert Event.objects.get(pk=event.pk).ledger_seq == start + 1
    with pytest.raises(RuntimeError), transaction.atomic():
        _record(t1, 2, seat_names(t1)[1], ["tom"])
        raise RuntimeError("the scorekeeper's phone lost the connection")
    assert Event.objects.get(pk=event.pk).ledger_seq == start + 1
    assert t1.sitting.van.count() == 1


def test_a_stale_result_never_overwrites_a_newer_one(seated, monkeypatch) -> None:
    event, (t1, _t2) = seated
    _record(t1, 1, seat_names(t1)[0], ["tom"])
    assert rebuild_leaderboard(event_id=event.pk).version == 1
    fresh = Leaderboard.objects.get(event=event).rows
    real = standings_module.compute_standings

    def stale(ev, **kw):
        result = real(ev, **kw)
        return Standings([], [], 0, result.ledger_seq - 1)

    monkeypatch.setattr(leaderboard_module, "compute_standings", stale)
    done = rebuild_leaderboard(event_id=event.pk)
    assert not done.written and done.version == 1
    assert Leaderboard.objects.get(event=event).rows == fresh
    monkeypatch.setattr(leaderboard_module, "compute_standings", real)
    assert not rebuild_leaderboard(event_id=event.pk).written  # same ledger state: nothing to write
    assert rebuild_leaderboard(event_id=event.pk, force=True).version == 2  # an organiser's full recompute


def test_standings_take_a_fixed_number_of_queries(seated, django_assert_num_queries) -> None:
    event, (t1, t2) = seated
    _record(t1, 1, seat_names(t1)[0], ["tom"])
    with django_assert_num_queries(6):
        compute_standings(event)
    round_seat(event=event, method="rotation", seed=3)
    for table in Table.objects.filter(event=event, round__number=2):
        _record(table, 1, seat_names(table)[0], ["leo"])
    with django_assert_num_queries(6):
        assert compute_standings(event).van_count == 3


@pytest.mark.django_db(transaction=True)
def test_recomputes_are_coalesced_to_one_per_second(queued, seated) -> None:
    event, (t1, t2) = seated
    assert queued == [event.pk]  # the registrations, coalesced
    # The clock stands still: the three ván land within the second however slow the machine is.
    with time_machine.travel(timezone.now(), tick=False):
        Event.objects.filter(pk=event.pk).update(recompute_due_at=None)
        queued.clear()
        start = Event.objects.get(pk=event.pk).ledger_seq
        _record(t1, 1, seat_names(t1)[0], ["tom"])
        _record(t2, 1, seat_names(t2)[0], ["tom"])
        # Straight through the scoring service: the sitting_changed signal bumps the event too.
        van_record(
            sitting=t1.sitting,
            seq=2,
            record={"winner": seat_names(t1)[1], "cuoc": ["tom"]},
            idempotency_key=None,
        )
        assert queued == [event.pk]
        assert Event.objects.get(pk=event.pk).ledger_seq == start + 3
        Event.objects.filter(pk=event.pk).update(recompute_due_at=timezone.now() - timedelta(milliseconds=1))
        _record(t2, 2, seat_names(t2)[1], ["tom"])
        assert queued == [event.pk, event.pk]


def test_a_replayed_request_changes_nothing(seated, queued) -> None:
    event, (t1, _t2) = seated
    start = Event.objects.get(pk=event.pk).ledger_seq
    for _ in range(2):
        event_van_record(
            table=t1,
            seq=1,
            record={"winner": seat_names(t1)[0], "cuoc": ["tom"]},
            idempotency_key="phone-1-van-1",
        )
    assert Event.objects.get(pk=event.pk).ledger_seq == start + 1


def _line(name: str, points: int, wins: int = 0, best: int = 0, van: int = 4) -> Line:
    return Line(name, name, points=points, wins=wins, best_win=best, van=van)


@pytest.mark.parametrize(
    ("tie_breaks", "order", "ranks"),
    [
        (["points", "wins", "best_win"], ["Bình", "An", "Chi"], [1, 2, 3]),
        (["points"], ["An", "Bình", "Chi"], [1, 1, 3]),  # equal points share rank 1; names order the rest
        (["wins", "points"], ["Chi", "Bình", "An"], [1, 2, 3]),
        (["best_win", "points"], ["An", "Bình", "Chi"], [1, 1, 3]),
    ],
)
def test_tie_breaks_are_configurable(tie_breaks, order, ranks) -> None:
    lines = [
        _line("An", 40, wins=1, best=40),
        _line("Bình", 40, wins=2, best=40),
        _line("Chi", 10, wins=3, best=8),
    ]
    ranked = rank_lines(lines, tie_breaks)
    assert [r["name"] for r in ranked] == order
    assert [r["rank"] for r in ranked] == ranks
