"""One leaderboard on both databases: `make test` runs this module on PostgreSQL and again on the
embedded default (a SQLite file, as `make run` uses). The same festival gives the same board, row
for row, on both (the golden board below, asserted in both passes); the incremental pass equals
the full rebuild after every step of it; the read snapshot does not hold up a writer; the
command exits as documented; a failed recompute is on the organiser's page."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from django.urls import reverse

from scoring.models import Van
from scoring.services.sittings import sitting_settle_up
from tests.subprocesses import shared_database_url
from tests.tournaments.conftest import record, seat_names, settled_board, wait_for
from tournaments.models import Event, Leaderboard, Registration, Table
from tournaments.selectors.standings import compute_standings
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.events import registration_withdraw
from tournaments.services.leaderboard import read_snapshot, rebuild_leaderboard, update_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.van import event_van_correct

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

ROOT = Path(__file__).resolve().parents[2]

#: The board of :func:`_festival`, the same on PostgreSQL and SQLite: rank, tied, name, team,
#: withdrawn, points, ván, wins, biggest win, cước (the row's key, a player id, differs between
#: two databases and is left out).
GOLDEN_PLAYERS = [
    (1, False, "Minh", "Giáp Đoài", False, 126, 3, 1, 36, {"chi_nay": 1}),
    (2, False, "Hà", "Giáp Đoài", False, 90, 5, 1, 36, {"chi_nay": 1}),
    (3, False, "Chi", "Giáp Đông", False, 36, 4, 2, 10, {"leo": 1, "tom": 1}),
    (4, False, "Lan", "Giáp Đoài", False, 32, 2, 1, 10, {"leo": 1}),
    (5, False, "Khánh", "Giáp Đoài", False, -14, 3, 1, 8, {"tom": 1}),
    (6, True, "Dũng", "Giáp Đông", True, -18, 2, 0, 0, {}),  # withdrawn after round 1: still ranked
    (6, True, "Em", "Giáp Đông", False, -18, 2, 0, 0, {}),
    (8, False, "Giang", "Giáp Đoài", False, -54, 4, 0, 0, {}),
    (9, True, "An", "Giáp Đông", False, -90, 5, 0, 0, {}),
    (9, True, "Bình", "Giáp Đông", False, -90, 5, 0, 0, {}),
]
GOLDEN_TEAMS = [
    (1, "Giáp Đoài", 5, 180, 17, 4, 36, {"chi_nay": 2, "leo": 1, "tom": 1}),
    (2, "Giáp Đông", 5, -180, 18, 2, 10, {"leo": 1, "tom": 1}),
]
#: Round 1: four ván at table 1 (a draw among them; then settled up), two at table 2 (one
#: corrected); round 2: one ván.
GOLDEN_VAN = 7


@pytest.fixture(autouse=True)
def _no_queue(request, monkeypatch) -> None:
    """No Celery here (the task body is called directly), except in the tests of the real worker."""
    if not request.node.get_closest_marker("celery"):
        monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def _rows(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (
            r["rank"],
            r["tied"],
            r["name"],
            r["team"],
            r["withdrawn"],
            r["points"],
            r["van"],
            r["wins"],
            r["best_win"],
            r["cuoc"],
        )
        for r in rows
    ]


def _team_rows(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r["rank"], r["name"], r["players"], r["points"], r["van"], r["wins"], r["best_win"], r["cuoc"])
        for r in rows
    ]


def _same_as_full(event: Event) -> Leaderboard:
    """The incremental pass stores exactly what the full rebuild computes."""
    update_leaderboard(event_id=event.pk)
    board = Leaderboard.objects.get(event=event)
    fresh = compute_standings(Event.objects.get(pk=event.pk))
    assert (board.rows, board.teams, board.van_count) == (fresh.players, fresh.teams, fresh.van_count)
    assert board.ledger_seq == Event.objects.get(pk=event.pk).ledger_seq
    return board


def _festival(event: Event, tables: list[Table]) -> Leaderboard:
    """Two rounds with a draw, a correction, a settle-up and a withdrawal; the incremental board
    checked against the full rebuild after each step."""
    t1, t2 = tables
    a = seat_names(t1)
    b = seat_names(t2)
    rebuild_leaderboard(event_id=event.pk)
    record(t1, 1, a[0], ["tom"])
    record(t1, 2, a[1], ["chi_nay"])
    _same_as_full(event)
    record(t2, 1, b[2], ["tom", "leo"])
    record(t2, 2, b[3], ["leo"])
    event_van_record_draw(t1, 3)
    _same_as_full(event)
    van = Van.objects.get(sitting=t2.sitting, seq=1, is_current=True)
    event_van_correct(
        van=van,
        record={"winner": b[4], "cuoc": ["tom"]},
        reason="ghi nhầm người ù",
        corrected_by=None,
        idempotency_key=None,
    )
    record(t1, 4, a[0], ["leo"])
    _same_as_full(event)
    sitting_settle_up(sitting=t1.sitting, settled_by=None, idempotency_key=None)
    registration_withdraw(registration=Registration.objects.get(event=event, player__name=b[1]))
    _same_as_full(event)
    round_seat(event=event, method="rotation", seed=3)
    for table in Table.objects.filter(event=event, round__number=2).order_by("number"):
        names = seat_names(table)
        record(table, 1, names[-1], ["chi_nay"])
    return _same_as_full(event)


def event_van_record_draw(table: Table, seq: int) -> None:
    from tournaments.services.van import event_van_record

    event_van_record(table=table, seq=seq, record={"result": "hoa"}, idempotency_key=None)


def test_the_same_festival_gives_the_same_board_on_either_database(seated) -> None:
    event, tables = seated
    board = _festival(event, tables)
    assert _rows(board.rows) == GOLDEN_PLAYERS
    assert _team_rows(board.teams) == GOLDEN_TEAMS
    assert board.van_count == GOLDEN_VAN


@pytest.mark.django_db(transaction=True)
def test_a_recompute_reads_one_snapshot_and_does_not_hold_up_a_writer(seated) -> None:
    """A ván recorded while a board is being computed is saved at once (SQLite: the read is a
    deferred transaction, no write lock) and the computation still sees the ledger as it began."""
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("an in-memory SQLite database has no write-ahead log (make test uses a file)")
    event, (t1, _t2) = seated
    winner = seat_names(t1)[0]
    saved, errors = threading.Event(), []

    def write() -> None:
        try:
            record(t1, 1, winner, ["tom"])
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connections.close_all()
            saved.set()

    with read_snapshot():
        before = Event.objects.get(pk=event.pk).ledger_seq
        writer = threading.Thread(target=write)
        writer.start()
        assert saved.wait(10), "the ván waited for the leaderboard's read to end"
        assert errors == []
        assert Event.objects.get(pk=event.pk).ledger_seq == before  # still the picture it began with
        assert compute_standings(Event.objects.get(pk=event.pk)).van_count == 0
    writer.join()
    assert Event.objects.get(pk=event.pk).ledger_seq == before + 1
    assert compute_standings(Event.objects.get(pk=event.pk)).van_count == 1


def _manage(*args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url("recompute_leaderboards"),
        "CELERY_BROKER_URL": "memory://",
    }
    return subprocess.run(
        [sys.executable, "manage.py", "recompute_leaderboards", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.django_db(transaction=True)
def test_the_command_rebuilds_every_board_and_exits_0_or_2_on_a_bad_event(seated) -> None:
    event, (t1, t2) = seated
    record(t1, 1, seat_names(t1)[0], ["tom"])
    record(t2, 1, seat_names(t2)[3], ["chi_nay"])
    done = _manage("--all")
    assert done.returncode == 0, done.stderr
    assert f"[1/1] {event.name} ({event.slug}): đang tính lại…" in done.stdout
    assert "đã đếm 2 ván" in done.stdout and "xong, phiên bản" in done.stdout
    board = Leaderboard.objects.get(event=event)
    fresh = compute_standings(Event.objects.get(pk=event.pk))
    assert (board.rows, board.teams, board.van_count) == (fresh.players, fresh.teams, 2)
    assert board.built_by == "full" and board.failed_at is None

    out = io.StringIO()
    call_command("recompute_leaderboards", event.slug, stdout=out)  # by its slug (in this process)
    assert "đã cộng điểm từ sổ" in out.getvalue() and "xong, phiên bản" in out.getvalue()
    assert Leaderboard.objects.get(event=event).version == board.version + 1  # forced: a new version

    wrong = _manage("khong-co-giai-nay")
    assert wrong.returncode == 2
    assert "Không có giải 'khong-co-giai-nay'" in wrong.stderr and "Traceback" not in wrong.stderr


def test_naming_no_event_is_refused_with_exit_2() -> None:
    with pytest.raises(CommandError, match="Hãy nêu ít nhất một giải") as refused:
        call_command("recompute_leaderboards")
    assert refused.value.returncode == 2
    call_command("recompute_leaderboards", "--all")  # no event at all: nothing to do, no error


def test_a_failed_rebuild_is_recorded_on_the_board_and_the_command_exits_1(seated, capsys) -> None:
    event, (t1, _t2) = seated
    record(t1, 1, seat_names(t1)[0], ["tom"])
    Event.objects.filter(pk=event.pk).update(tie_breaks=["khong_co"])  # a ranking key nobody knows
    with pytest.raises(CommandError, match="Không tính lại được 1/1 giải") as failed:
        call_command("recompute_leaderboards", event.slug)
    assert failed.value.returncode == 1
    assert "lỗi khi tính lại: KeyError" in capsys.readouterr().err
    board = Leaderboard.objects.get(event=event)
    assert board.failed_at is not None and board.failure.startswith("KeyError")
    Event.objects.filter(pk=event.pk).update(tie_breaks=["points"])
    call_command("recompute_leaderboards", event.slug)
    board = Leaderboard.objects.get(event=event)
    assert board.failed_at is None and board.failure == "" and board.van_count == 1


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_recompute_failing_in_the_worker_shows_on_the_organiser_page(client, own, organiser) -> None:
    event, (t1, _t2) = own
    settled_board(event)  # the worker has built the board of the registrations
    manage = reverse("tournaments:manage", args=[event.slug])
    button = reverse("tournaments:recompute", args=[event.slug])
    client.force_login(organiser)
    Event.objects.filter(pk=event.pk).update(tie_breaks=["khong_co"])  # every recompute now fails
    record(t1, 1, seat_names(t1)[0], ["tom"])
    board = wait_for(lambda: (b := Leaderboard.objects.get(event=event)).failed_at and b)
    assert board.failure.startswith("KeyError") and board.van_count == 0
    page = client.get(manage).content.decode()
    assert "bị lỗi: KeyError" in page and "Bảng xếp hạng đang hiện là bản tính trước đó" in page
    english = client.get("/en" + manage).content.decode()
    assert "failed: KeyError" in english and "The leaderboard shows the previous result" in english

    Event.objects.filter(pk=event.pk).update(tie_breaks=["points"])  # put right: the button works again
    answer = client.post(button, HTTP_HX_REQUEST="true")
    assert "Đang tính lại từ sổ điểm…" in answer.content.decode()
    board = wait_for(lambda: (b := Leaderboard.objects.get(event=event)).failed_at is None and b)
    assert board.van_count == 1 and board.failure == ""
    page = client.get(manage).content.decode()
    assert "bị lỗi" not in page and "1 ván" in page
