"""An event with two-person confirmation whose standings count confirmed ván only: a provisional
ván is on the scoreboard as "chờ xác nhận" but not in the standings; once a second person
confirms it, the recompute (incremental or full, and the real Celery worker) counts it."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Player, Sitting, Van, VanStatus
from scoring.services.review import van_confirm
from tests.factories import UserFactory
from tests.tournaments.conftest import seat_names, settled_board, wait_for
from tournaments.models import BuiltBy, Event, Leaderboard, Table, TableSitting
from tournaments.selectors.standings import compute_standings
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.leaderboard import rebuild_leaderboard, update_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.tables import table_close
from tournaments.services.van import event_van_correct, event_van_record

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]  # and on the embedded default (SQLite)


@pytest.fixture
def confirmed_only(make_event) -> tuple[Event, list[Any], Any]:
    """The event with both options, round 1 seated; a scorekeeper account records."""
    event = make_event(confirmation_required=True, count_confirmed_only=True)
    round_seat(event=event, method="random", seed=11)
    tables = list(Table.objects.filter(event=event).order_by("number").select_related("sitting"))
    return event, tables, UserFactory(username="thu-ky-chieu")


def _record(table: Any, seq: int, winner: str, by: Any, cuoc: list[str] | None = None) -> Van:
    return event_van_record(
        table=table,
        seq=seq,
        record={"winner": winner, "cuoc": cuoc or ["tom"]},
        idempotency_key=None,
        entered_by=by,
    ).obj


def _reviewer(sitting: Sitting, name: str) -> Any:
    """The account of the player seated as ``name``."""
    user = UserFactory(username=f"nguoi-choi-{Player.objects.get(seats__sitting=sitting, name=name).pk}")
    Player.objects.filter(seats__sitting=sitting, name=name).update(user=user)
    return user


def _every_van_counted(event: Event) -> list[dict[str, Any]]:
    """What the standings would be if every ván counted (the same event without the option)."""
    fresh = Event.objects.get(pk=event.pk)
    fresh.count_confirmed_only = False
    return compute_standings(fresh).players


def _line(rows: list[dict[str, Any]], name: str) -> tuple[int, int, int]:
    row = next(r for r in rows if r["name"] == name)
    return row["points"], row["van"], row["wins"]


@pytest.fixture
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


@pytest.mark.usefixtures("_no_queue")
def test_provisional_van_count_only_once_confirmed(
    confirmed_only, django_capture_on_commit_callbacks
) -> None:
    event, (t1, t2), keeper = confirmed_only
    assert all(ts.sitting.needs_confirmation for ts in TableSitting.objects.filter(event=event))
    a, b = seat_names(t1)[:2]
    van = _record(t1, 1, a, keeper)
    _record(t2, 1, seat_names(t2)[0], keeper, ["chi_nay"])
    assert van.status == VanStatus.PROVISIONAL
    update_leaderboard(event_id=event.pk)
    board = Leaderboard.objects.get(event=event)
    assert board.van_count == 0 and all(row["points"] == 0 and row["van"] == 0 for row in board.rows)
    assert _line(_every_van_counted(event), a)[0] > 0  # the ván is in the ledger all the same

    seq_before = Event.objects.get(pk=event.pk).ledger_seq
    with django_capture_on_commit_callbacks(execute=True):
        van_confirm(sitting=t1.sitting_id, seq=1, reviewer=_reviewer(t1.sitting, b))
    assert Event.objects.get(pk=event.pk).ledger_seq == seq_before + 1  # bumped like a ván write
    assert TableSitting.objects.get(sitting_id=t1.sitting_id).changed_seq == seq_before + 1
    done = update_leaderboard(event_id=event.pk)
    assert done.written and done.built_by == BuiltBy.INCREMENTAL
    board = Leaderboard.objects.get(event=event)
    assert board.van_count == 1
    assert _line(board.rows, a) == _line(_every_van_counted(event), a)
    assert _line(board.rows, seat_names(t2)[0]) == (0, 0, 0)  # t2's ván still waits
    assert (board.rows, board.van_count) == (compute_standings(Event.objects.get(pk=event.pk)).players, 1)


@pytest.mark.usefixtures("_no_queue")
def test_a_corrected_van_waits_again_and_a_closed_table_still_counts(
    confirmed_only, django_capture_on_commit_callbacks
) -> None:
    event, (t1, _t2), keeper = confirmed_only
    a, b, c = seat_names(t1)[:3]
    _record(t1, 1, a, keeper)
    _record(t1, 2, b, keeper)
    player = _reviewer(t1.sitting, c)
    with django_capture_on_commit_callbacks(execute=True):
        van_confirm(sitting=t1.sitting_id, seq=1, reviewer=player)
        van_confirm(sitting=t1.sitting_id, seq=2, reviewer=player)
    update_leaderboard(event_id=event.pk)
    assert Leaderboard.objects.get(event=event).van_count == 2
    first = Van.objects.get(sitting_id=t1.sitting_id, seq=1, is_current=True)
    event_van_correct(
        van=first,
        record={"winner": c, "cuoc": ["leo"]},
        reason="nhầm người",
        corrected_by=keeper,
        idempotency_key=None,
    )
    update_leaderboard(event_id=event.pk)
    board = Leaderboard.objects.get(event=event)
    assert board.van_count == 1 and _line(board.rows, c)[2] == 0  # the correction is provisional
    table_close(table=t1, closed_by=keeper)  # settle-up postings are not ván: they never count
    rebuild_leaderboard(event_id=event.pk, force=True)
    full = Leaderboard.objects.get(event=event).rows
    assert _line(full, b)[1:] == (1, 1) and _line(full, a)[1:] == (1, 0)
    with django_capture_on_commit_callbacks(execute=True):
        van_confirm(sitting=t1.sitting_id, seq=1, reviewer=UserFactory(username="thu-ky-khac"))
    update_leaderboard(event_id=event.pk)
    board = Leaderboard.objects.get(event=event)
    assert board.rows == compute_standings(Event.objects.get(pk=event.pk)).players and board.van_count == 2
    assert _line(board.rows, c)[2] == 1


@pytest.mark.usefixtures("_no_queue")
def test_the_scoreboard_says_how_many_van_wait(client, make_event) -> None:
    counted = make_event(confirmation_required=True)
    round_seat(event=counted, method="random", seed=11)
    table = Table.objects.filter(event=counted).order_by("number").first()
    _record(table, 1, seat_names(table)[0], UserFactory(username="ghi"))
    rebuild_leaderboard(event_id=counted.pk)
    page = client.get(f"/giai/{counted.slug}/").content.decode()
    assert "1 ván tạm tính, chờ xác nhận" in page
    assert Leaderboard.objects.get(event=counted).van_count == 1  # this event counts provisional ván


def test_the_event_form_offers_both_options(client) -> None:
    client.force_login(UserFactory(username="ban-to-chuc"))
    fields = {
        "name": "Hội làng Cổ Loa",
        "date": "2025-02-03",
        "lunar": "",
        "kind": "hoi",
        "game": "to-tom-5",
        "rules": "luat-2005",
        "mode": "quang",
        "round_format": "van",
        "van_per_round": 6,
        "minutes_per_round": 45,
        "tie_breaks": "points,wins,best_win",
        "is_public": "on",
    }
    form = client.get("/giai-moi/").content.decode()
    assert "Mỗi ván cần người thứ hai xác nhận" in form and "Bảng xếp hạng chỉ tính ván đã xác nhận" in form
    refused = client.post("/giai-moi/", {**fields, "count_confirmed_only": "on"})
    assert refused.status_code == 400 and "Hãy bật cả" in refused.content.decode()
    done = client.post("/giai-moi/", {**fields, "confirmation_required": "on", "count_confirmed_only": "on"})
    assert done.status_code == 302
    event = Event.objects.get(slug="hoi-lang-co-loa")
    assert (event.confirmation_required, event.count_confirmed_only) == (True, True)


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_the_worker_counts_a_van_once_it_is_confirmed(client, confirmed_only) -> None:
    event, (t1, _t2), keeper = confirmed_only
    a, b = seat_names(t1)[:2]
    _record(t1, 1, a, keeper)
    board = settled_board(event)
    assert board.van_count == 0 and _line(board.rows, a) == (0, 0, 0)
    page = client.get(f"/giai/{event.slug}/").content.decode()
    assert "1 ván chờ xác nhận, chưa tính vào bảng" in page
    van_confirm(sitting=t1.sitting_id, seq=1, reviewer=_reviewer(t1.sitting, b))
    board = wait_for(lambda: (bd := Leaderboard.objects.get(event=event)).van_count == 1 and bd)
    assert _line(board.rows, a) == _line(_every_van_counted(event), a) and _line(board.rows, a)[0] > 0
    settled_board(event)
    page = client.get(f"/giai/{event.slug}/").content.decode()
    assert "chờ xác nhận" not in page
