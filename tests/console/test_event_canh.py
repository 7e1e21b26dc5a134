"""A Trung Quân table run for an event's chiếu follows the chiếu from canh to canh.

The event's round sets the ván per canh: when a canh is full the chiếu opens its next canh (the
same players, seated one place round), and the console must play on there, not keep writing into
the finished canh.
"""

from __future__ import annotations

import datetime as dt
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
    event = event_create(name="Hội làng Đông Ngạc", date=dt.date(2026, 2, 22), game="to-tom-diem",
                         rules="luat-2005", mode="quang", van_per_round=6, van_per_sitting=2)
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
    return van_finish(table=console, seq=console.van_seq, record={"winner": winner, "cuoc": ["tom"]}, by=None,
                      idempotency_key=key, sitting=sitting)


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
        event_van_record(table=table, seq=seq, record={"winner": names[0], "cuoc": ["tom"]},
                         idempotency_key=f"page-{seq}", sitting=first)
    with pytest.raises(CanhMoved):
        van_finish(table=console, seq=3, record={"winner": names[0]}, by=None, idempotency_key="tq-3",
                   sitting=first)
    console.refresh_from_db()
    table.refresh_from_db()
    assert console.sitting_id == table.sitting_id != first and console.van_seq == 1  # kept after the refusal
    van_start(table=console)
    written = _finish(console, names[4], "tq-1")
    assert written.obj.sitting_id == table.sitting_id and written.obj.seq == 1
