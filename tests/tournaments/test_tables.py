"""A table during its round: several canh (a fixed number of ván per canh), the time limit and
its clock, closing the table, a substitute before the first ván."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.engine.errors import EngineError
from scoring.models import Sitting
from tests.tournaments.conftest import seat_names
from tournaments.models import Leaderboard, Registration, RegistrationStatus, Round, Table, TableSitting
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.events import registration_add, registration_withdraw
from tournaments.services.leaderboard import rebuild_leaderboard, update_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.tables import table_close, table_substitute
from tournaments.services.van import CanhMoved, event_van_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def _record(table: Table, winner_index: int = 0, *, key: str | None = None, sitting: int | None = None):
    table.refresh_from_db()
    names = seat_names(table)
    seq = table.sitting.van.filter(is_current=True).count() + 1
    return event_van_record(
        table=table,
        seq=seq,
        record={"winner": names[winner_index], "cuoc": ["tom"]},
        idempotency_key=key,
        sitting=sitting,
    )


def _seated(make_event, **options) -> tuple[object, list[Table]]:
    event = make_event(**options)
    round_seat(event=event, method="random", seed=11)
    return event, list(Table.objects.filter(event=event).order_by("number"))


def test_a_new_canh_opens_when_one_reaches_its_van_and_the_round_stops_at_its_count(make_event) -> None:
    event, (t1, _t2) = _seated(make_event, van_per_round=4, van_per_sitting=2)
    first = seat_names(t1)
    _record(t1)
    _record(t1)
    t1.refresh_from_db()
    canh = list(TableSitting.objects.filter(table=t1).order_by("number"))
    assert [c.number for c in canh] == [1, 2] and t1.sitting_id == canh[1].sitting_id
    assert seat_names(t1) == first[1:] + first[:1]  # same players, the next one leads
    _record(t1)
    _record(t1)
    assert TableSitting.objects.filter(table=t1).count() == 2  # the round is over: no third canh
    with pytest.raises(EngineError, match="đủ 4 ván của vòng"):
        _record(t1)
    rebuild_leaderboard(event_id=event.pk)
    assert update_leaderboard(event_id=event.pk).van_count == 4


def test_a_stale_page_cannot_record_into_a_finished_canh_but_a_double_tap_replays(make_event) -> None:
    _event, (t1, _t2) = _seated(make_event, van_per_round=6, van_per_sitting=2)
    old = t1.sitting_id
    _record(t1)
    last = _record(t1, key="dien-thoai-1-van-2", sitting=old)  # this ván fills canh 1
    t1.refresh_from_db()
    assert t1.sitting_id != old
    again = event_van_record(
        table=t1,
        seq=2,
        record={"winner": seat_names(t1)[4], "cuoc": ["tom"]},
        idempotency_key="dien-thoai-1-van-2",
        sitting=old,
    )
    assert again.answer.replayed and again.obj.pk == last.obj.pk
    with pytest.raises(CanhMoved, match="sang canh mới"):
        event_van_record(
            table=t1,
            seq=3,
            record={"winner": seat_names(t1)[0], "cuoc": ["tom"]},
            idempotency_key="dien-thoai-2",
            sitting=old,
        )
    assert Sitting.objects.get(pk=old).van.count() == 2


def test_a_timed_round_stores_the_end_time_and_the_organiser_closes_the_table(make_event) -> None:
    event, (t1, t2) = _seated(make_event, round_format="gio", minutes_per_round=30)
    assert t1.ends_at is not None and abs(t1.ends_at - timezone.now() - timedelta(minutes=30)) < timedelta(
        minutes=1
    )
    _record(t1)
    Table.objects.filter(pk=t1.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    _record(t1, 1)  # the ván in play at the bell is still recorded
    table_close(table=t1, closed_by=None)
    t1.refresh_from_db()
    assert t1.closed_at is not None and t1.sitting.ended_at is not None
    with pytest.raises(EngineError):
        _record(t1)
    assert table_close(table=t1, closed_by=None).closed_at == t1.closed_at  # twice: no change
    rebuild_leaderboard(event_id=event.pk)
    update_leaderboard(event_id=event.pk)
    rows = {r["name"]: r for r in Leaderboard.objects.get(event=event).rows}
    assert sum(r["points"] for r in rows.values()) == 0 and rows[seat_names(t1)[0]]["wins"] == 1


def test_a_substitute_takes_the_seat_before_the_first_van(make_event) -> None:
    event = make_event()
    late = registration_add(event=event, name="Phúc", team="Giáp Nam")  # registered, not yet checked in
    round_seat(event=event, method="random", seed=11)
    t1 = Table.objects.filter(event=event).order_by("number").first()
    before = seat_names(t1)
    absent = Registration.objects.get(event=event, player__name=before[2])
    old = t1.sitting_id
    registration_withdraw(registration=absent)
    table_substitute(table=t1, out_player=absent.player_id, substitute=late)
    t1.refresh_from_db()
    assert seat_names(t1) == before[:2] + ["Phúc"] + before[3:]  # the same seat, under the substitute's name
    assert t1.sitting_id != old and Sitting.objects.get(pk=old).ended_at is not None
    assert list(TableSitting.objects.filter(table=t1).values_list("number", "sitting_id")) == [
        (1, t1.sitting_id)
    ]
    assert Registration.objects.get(pk=late.pk).status == RegistrationStatus.CHECKED_IN
    assert absent.player_id in Round.objects.get(pk=t1.round_id).byes
    _record(t1, 2)
    rebuild_leaderboard(event_id=event.pk)
    rows = {r["name"]: r for r in Leaderboard.objects.get(event=event).rows}
    assert rows["Phúc"]["wins"] == 1 and rows[before[2]]["van"] == 0


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ("after_van", "chỉ thay người được trước ván đầu tiên"),
        ("seated_elsewhere", "đã ngồi ở một chiếu của vòng này"),
        ("withdrawn", "không có trong danh sách thi đấu"),
        ("not_at_table", "không ngồi ở chiếu này"),
    ],
)
def test_a_substitute_is_refused_when_it_cannot_be_right(make_event, situation, message) -> None:
    event = make_event()
    spare = registration_add(event=event, name="Phúc", team="Giáp Nam")
    round_seat(event=event, method="random", seed=11)
    t1, t2 = Table.objects.filter(event=event).order_by("number")
    out = Registration.objects.get(event=event, player__name=seat_names(t1)[0]).player_id
    substitute = spare
    if situation == "after_van":
        _record(t1)
    elif situation == "seated_elsewhere":
        substitute = Registration.objects.get(event=event, player__name=seat_names(t2)[0])
    elif situation == "withdrawn":
        registration_withdraw(registration=spare)
    else:
        out = Registration.objects.get(event=event, player__name=seat_names(t2)[0]).player_id
    with pytest.raises(EngineError, match=message):
        table_substitute(table=t1, out_player=out, substitute=substitute)
