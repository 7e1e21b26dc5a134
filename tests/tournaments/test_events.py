"""Events, registration and check-in, seating rounds as sittings of the ledger."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.engine.errors import EngineError
from tests.tournaments.conftest import seat_names
from tournaments.models import Leaderboard, Registration, RegistrationStatus, Table
from tournaments.seating import SeatingError
from tournaments.services.events import (
    check_in,
    check_in_by_token,
    event_create,
    registration_add,
    registration_withdraw,
)
from tournaments.services.rounds import round_seat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("date", "lunar", "label"),
    [
        (dt.date(2025, 2, 3), "", "mùng 6 tháng Giêng năm Ất Tỵ"),
        (dt.date(2024, 9, 17), "", "rằm tháng Tám năm Giáp Thìn"),
        (dt.date(2025, 2, 3), "mồng sáu Tết", "mồng sáu Tết"),
    ],
)
def test_an_event_shows_its_lunar_date_computed_or_entered(date, lunar, label) -> None:
    event = event_create(name="Hội làng", date=date, game="to-tom-5", rules="luat-2005", lunar=lunar)
    assert event.lunar_label == label
    assert event.slug == "hoi-lang"
    assert Leaderboard.objects.get(event=event).version == 0


def test_a_rule_set_of_another_game_is_refused() -> None:
    with pytest.raises(EngineError):
        event_create(name="Giải Chắn", date=dt.date(2025, 2, 3), game="chan", rules="luat-2005")


def test_two_events_of_the_same_name_get_different_slugs() -> None:
    first = event_create(name="Hội Đình", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005")
    second = event_create(name="Hội Đình", date=dt.date(2026, 2, 22), game="to-tom-5", rules="luat-2005")
    assert (first.slug, second.slug) == ("hoi-dinh", "hoi-dinh-2")


def test_registration_checks_names_and_check_in_by_link(make_event) -> None:
    event = make_event(checked_in=0)
    with pytest.raises(EngineError, match="Giải đã có người tên 'An'"):
        registration_add(event=event, name="An", team="Giáp Bắc")
    late = registration_add(event=event, name="An (Bắc)", team="Giáp Bắc")
    assert late.status == RegistrationStatus.REGISTERED
    assert check_in_by_token(token=late.token).status == RegistrationStatus.CHECKED_IN
    assert check_in_by_token(token=late.token).checked_in_at is not None  # twice: no change, no error
    with pytest.raises(EngineError, match="Mã điểm danh không đúng"):
        check_in_by_token(token="khong-co")
    registration_withdraw(registration=late)
    with pytest.raises(EngineError, match="đã rút khỏi giải"):
        check_in(registration=late)


def test_round_one_seats_ten_checked_in_players_on_two_tables_of_five(make_event) -> None:
    event = make_event()
    rnd = round_seat(event=event, method="random", seed=7)
    tables = list(Table.objects.filter(round=rnd).select_related("sitting"))
    assert [t.number for t in tables] == [1, 2]
    seated = [name for t in tables for name in seat_names(t)]
    assert sorted(seated) == sorted(r.player.name for r in Registration.objects.filter(event=event))
    assert all(t.sitting.game == "to-tom-5" and t.sitting.rules_id == event.rules_id for t in tables)
    assert rnd.byes == []


def test_players_left_over_sit_out_and_byes_rotate(make_event) -> None:
    event = make_event()
    for name in ("Phúc", "Quang"):
        check_in(registration=registration_add(event=event, name=name, team="Giáp Nam"))
    first = round_seat(event=event, method="rotation", seed=1)
    second = round_seat(event=event, method="rotation", seed=2)
    assert len(first.byes) == len(second.byes) == 2
    assert not set(first.byes) & set(second.byes)
    assert (first.number, second.number) == (1, 2)


def test_smaller_tables_are_refused_for_a_five_player_game(make_event) -> None:
    event = make_event(checked_in=9)
    with pytest.raises(SeatingError, match="nghỉ vòng này"):
        round_seat(event=event, method="random", remainder="smaller")


def test_withdrawn_and_absent_players_are_not_seated(make_event) -> None:
    event = make_event()
    gone = Registration.objects.get(event=event, player__name="An")
    registration_withdraw(registration=gone)
    rnd = round_seat(event=event, method="random", seed=3)
    seated = {name for t in rnd.tables.all() for name in seat_names(t)}
    assert "An" not in seated
    assert len(seated) == 5 and len(rnd.byes) == 4
