"""An event can seat a round by rating: the players in order of their rating in their own club (the
club book's μ − 3σ), strong with strong; a player with no rating counts as a newcomer (0)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from scoring.models import Player
from scoring.services.ratings import rebuild_ratings
from tests.book.conftest import canh
from tournaments.models import Table
from tournaments.seating import Method
from tournaments.services.events import check_in, event_create, registration_add
from tournaments.services.rounds import round_seat

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

TEN = ["Cụ Tư", "Bác Năm", "Chú Sáu", "Anh Bảy", "Cô Tám", "Ông Chín", "Bà Mười", "Chị Hai", "Em Út", "Dì Ba"]


def test_a_round_seated_by_rating_puts_the_strongest_together(club: Any) -> None:
    # The first five win everything against the last five, many times over.
    strong, weak = TEN[:5], TEN[5:]
    for week in range(6):
        for i in range(5):
            table = [strong[i], *weak[:4]] if week % 2 else [weak[i], *strong[:4]]
            winner = table[0] if week % 2 else table[1]
            canh(
                club,
                dt.date(2025, 3, 1) + dt.timedelta(days=week * 7 + i),
                table,
                [{"winner": winner, "cuoc": ["tom"]}] * 2,
            )
    for name in TEN:
        Player.objects.get_or_create(club=club, name=name)
    rebuild_ratings(club_id=club.pk)
    event = event_create(name="Hội xuân", date=dt.date(2025, 4, 1), game="to-tom-5", rules="luat-2005")
    for name in reversed(TEN):  # registration order is the opposite of strength
        check_in(registration=registration_add(event=event, player=Player.objects.get(club=club, name=name)))
    rnd = round_seat(event=event, method=Method.RATING, seed=1)
    tables = [
        set(t.sitting.seats.values_list("player__name", flat=True))
        for t in Table.objects.filter(round=rnd).order_by("number")
    ]
    assert tables[0] == set(strong) and tables[1] == set(weak)
    assert rnd.get_method_display() == "Theo trình độ"
    # A player with no rating (no club) counts as the model's newcomer: μ − 3σ = 0.
    from tournaments.services.rounds import _by_rating

    newcomer = Player.objects.create(name="Khách lạ")
    best, worst = (Player.objects.get(club=club, name=n).pk for n in ("Cụ Tư", "Dì Ba"))
    assert _by_rating([worst, newcomer.pk, best]) == [best, newcomer.pk, worst]
