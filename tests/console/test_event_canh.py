"""A Trung Quân table run for an event's chiếu follows the chiếu from canh to canh.

The event's round sets the ván per canh: when a canh is full the chiếu opens its next canh (the
same players, seated one place round), and the console must play on there, not keep writing into
the finished canh.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client

from scoring.engine.errors import EngineError
from scoring.models import Sitting, Van
from tournaments.console.models import FestivalTable
from tournaments.console.services import table_open, van_finish, van_start
from tournaments.models import Table, TableSitting
from tournaments.services.van import CanhMoved, event_van_record

pytestmark = pytest.mark.django_db

TEN = ["An", "Bình", "Chi", "Dũng", "Em", "Giang", "Hà", "Khánh", "Lan", "Minh"]


@pytest.fixture
def chieu(django_user_model: Any) -> tuple[Table, FestivalTable, Any]:
    """A Tổ Tôm Điếm event of 2 ván per canh and 6 per round; chiếu 1 run from a console."""
    from tournaments.console import services
    from tournaments.services.events import check_in, event_create, registration_add
    from tournaments.services.rounds import round_seat

    services.ensure_catalogue()
    event = event_create(
        name="Hội làng Đông Ngạc",
        date=dt.date(2026, 2, 22),
        game="to-tom-diem",
        rules="luat-2005",
        mode="quang",
        van_per_round=6,
        van_per_sitting=2,
    )
    for name in TEN:
        check_in(registration=registration_add(event=event, name=name))
    round_seat(event=event, method="random", seed=11)
    table = Table.objects.filter(event=event).order_by("number").first()
    trung_quan = django_user_model.objects.create_user("trung-quan-dinh")
    console = table_open(name="Chiếu giữa sân", event_table=table, trung_quan=trung_quan)
    return table, console, trung_quan


def _names(sitting_id: int) -> list[str]:
    return list(Sitting.objects.get(pk=sitting_id).seats.order_by("position").values_list("name", flat=True))


def _finish(console: FestivalTable, winner: str, key: str, sitting: int | None = None) -> Any:
    console.refresh_from_db()
    return van_finish(
        table=console,
        seq=console.van_seq,
        record={"winner": winner, "cuoc": ["tom"]},
        by=None,
        idempotency_key=key,
        sitting=sitting,
    )


def test_the_console_moves_on_with_the_chieu_when_its_canh_is_full(chieu: Any) -> None:
    table, console, _tq = chieu
    first = table.sitting_id
    names = _names(first)
    _finish(console, names[1], "v1")
    _finish(console, names[2], "v2")  # canh 1 now has its 2 ván: the chiếu opens canh 2
    table.refresh_from_db()
    console.refresh_from_db()
    assert table.sitting_id != first
    assert console.sitting_id == table.sitting_id and console.van_seq == 1
    assert _names(console.sitting_id) == names[1:] + names[:1]  # same players, one place round
    assert _names(console.sitting_id)[console.dealer - 1] == names[2]  # the last winner still deals
    assert console.turn == console.dealer and console.noc_left == 19
    assert console.announcement["winner"] == names[2]  # the display still shows the last win
    _finish(console, names[3], "v3")
    assert Van.objects.filter(sitting_id=first).count() == 2  # nothing more into the full canh
    assert Van.objects.filter(sitting_id=table.sitting_id, is_current=True).count() == 1
    assert TableSitting.objects.filter(table=table).count() == 2


def test_the_rounds_van_count_holds_at_the_console(chieu: Any) -> None:
    _table, console, _tq = chieu
    for i in range(6):
        console.refresh_from_db()
        _finish(console, _names(console.sitting_id)[0], f"v{i}")
    with pytest.raises(EngineError, match="đủ 6 ván của vòng"):
        _finish(console, _names(console.sitting_id)[0], "v7")


def test_a_form_from_the_finished_canh_replays_its_double_tap_and_refuses_a_new_van(chieu: Any) -> None:
    table, console, trung_quan = chieu
    first = table.sitting_id
    names = _names(first)
    client = Client()
    client.force_login(trung_quan)
    url = f"/trung-quan/{console.pk}/ghi-van/"
    client.post(url, {"seq": 1, "canh": first, "key": "k1", "winner": names[0]})
    last = {"seq": 2, "canh": first, "key": "k2", "winner": names[1], "cuoc": ["tom"]}
    assert client.post(url, last).status_code == 200
    console.refresh_from_db()
    assert console.sitting_id != first
    client.post(url, last)  # the phone sends the last ván of canh 1 again
    assert Van.objects.filter(sitting_id=first).count() == 2
    assert Van.objects.filter(sitting_id=console.sitting_id).count() == 0
    stale = client.post(url, {"seq": 3, "canh": first, "key": "k3", "winner": names[2]})
    assert "sang canh mới" in stale.content.decode()
    assert Van.objects.filter(sitting_id=first).count() == 2


def test_the_console_catches_up_when_the_events_scorekeeper_filled_the_canh(chieu: Any) -> None:
    table, console, _tq = chieu
    first = table.sitting_id
    names = _names(first)
    for seq in (1, 2):  # the event's own scorekeeper page records both ván
        event_van_record(
            table=table,
            seq=seq,
            record={"winner": names[0], "cuoc": ["tom"]},
            idempotency_key=f"page-{seq}",
            sitting=first,
        )
    with pytest.raises(CanhMoved):
        van_finish(
            table=console, seq=3, record={"winner": names[0]}, by=None, idempotency_key="tq-3", sitting=first
        )
    console.refresh_from_db()
    table.refresh_from_db()
    assert console.sitting_id == table.sitting_id != first and console.van_seq == 1  # kept after the refusal
    van_start(table=console)
    written = _finish(console, names[4], "tq-1")
    assert written.obj.sitting_id == table.sitting_id and written.obj.seq == 1


def test_a_new_canh_starts_with_a_clean_display_and_each_canh_keeps_its_own_signals(chieu: Any) -> None:
    """Ván 1 of canh 2 is not ván 1 of canh 1: the display must not show canh 1's flags, and the
    signal list and the timeline name each signal's player as seated in its own canh."""
    from tournaments.console.selectors import recent_signals, table_state, timeline
    from tournaments.console.services import signal_send

    table, console, _tq = chieu
    first = table.sitting_id
    names = _names(first)
    signal_send(table=console, seat=2, signal="co-trang")  # canh 1, ván 1: seat 2 gives up
    signal_send(table=console, seat=3, signal="co-vang")  # and seat 3 asks for a bất thực
    signal_send(table=console, seat=1, signal="co-do")
    _finish(console, names[0], "v1")
    _finish(console, names[1], "v2")  # canh 1 full: the console is on canh 2, ván 1
    console.refresh_from_db()
    assert console.sitting_id != first and console.van_seq == 1
    state = table_state(console)
    assert [s["chiu"] for s in state["seats"]] == [False] * 5
    assert state["u_seats"] == [] and all(not s["bat_thuc"] for s in state["seats"])
    signal_send(table=console, seat=2, signal="tung")  # canh 2, ván 1: seat 2 is another player now
    second = _names(console.sitting_id)
    ticker = recent_signals(console)
    assert [(s["seat_name"], s["signal"]) for s in ticker] == [
        (names[1], "co-trang"),
        (names[2], "co-vang"),
        (names[0], "co-do"),
        (second[1], "tung"),
    ]
    assert second[1] != names[1]
    client = Client()
    listed = client.get(f"/api/v1/tables/{console.pk}/signals", {"van": 1}).json()
    assert [(s["seat_name"], s["signal"]) for s in listed] == [
        (second[1], "tung")
    ]  # ván 1 of the canh under way
    lines = [(v.canh, v.seq, [s["signal"] for s in v.signals]) for v in timeline(console)]
    assert lines == [(1, 1, ["co-trang", "co-vang", "co-do"]), (1, 2, []), (2, 1, ["tung"])]


@pytest.mark.django_db(transaction=True)
def test_signals_given_before_the_canh_was_recorded_are_assigned_to_the_canh_they_were_given_in(
    chieu: Any,
) -> None:
    """Migration console 0003 fills in the canh of signals stored without one: for an event's
    chiếu, the latest canh opened by the time the signal was given."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from tournaments.console.models import SignalEvent
    from tournaments.console.services import signal_send

    _table, console, _tq = chieu
    signal_send(table=console, seat=2, signal="co-trang")
    _finish(console, _names(console.sitting_id)[0], "v1")
    _finish(console, _names(console.sitting_id)[0], "v2")
    console.refresh_from_db()
    signal_send(table=console, seat=1, signal="tung")
    _finish(console, _names(console.sitting_id)[0], "v3")
    signal_send(table=console, seat=4, signal="cac")
    given = dict(SignalEvent.objects.values_list("pk", "sitting_id"))
    assert len(set(given.values())) == 2

    executor = MigrationExecutor(connection)
    executor.migrate([("console", "0002_seed_signals")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert dict(SignalEvent.objects.values_list("pk", "sitting_id")) == given


def test_the_admins_list_of_signals_shows_each_signals_canh(chieu: Any, django_user_model: Any) -> None:
    from tournaments.console.services import signal_send

    _table, console, _tq = chieu
    signal_send(table=console, seat=2, signal="co-trang")
    staff = django_user_model.objects.create_superuser("quan-tri", password="x")
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/console/signalevent/")
    assert page.status_code == 200
    assert str(Sitting.objects.get(pk=console.sitting_id)) in page.content.decode()


def test_the_timeline_page_goes_canh_by_canh(chieu: Any) -> None:
    from tournaments.console.services import signal_send

    _table, console, _tq = chieu
    signal_send(table=console, seat=2, signal="co-trang")
    _finish(console, _names(console.sitting_id)[0], "v1")
    _finish(console, _names(console.sitting_id)[0], "v2")
    console.refresh_from_db()
    signal_send(table=console, seat=1, signal="tung")
    page = Client().get(f"/man-hinh/{console.pk}/dien-bien/").content.decode()
    heads = [h.split("—")[0].strip() for h in re.findall(r"<h2>(.*?)</h2>", page, re.S)]
    assert heads == ["Canh 1 · Ván 1", "Canh 1 · Ván 2", "Canh 2 · Ván 1"]
    assert 'data-replay="2-1"' in page
