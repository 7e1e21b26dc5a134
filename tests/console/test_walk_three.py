"""Issue 31, item 1, on the console's side: the ván form ticks the seat that signalled ù last (it
ticked the first claimant), and the new ván's first signal takes the last result off the audience
display (it covered the seats until "Bắt đầu ván"). In Chromium: tests/browser/test_walk_three.py."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.django_db]


# -- the console's ván form: the latest ù claimant --------------------------------------------------


def test_the_van_form_ticks_the_seat_that_signalled_u_last(festival: Any) -> None:
    from tournaments.console import services
    from tournaments.console.views.common import van_form_context

    table = festival.table
    services.van_start(table=table)
    services.signal_send(table=table, seat=1, signal="co-do", by=festival.trung_quan)
    services.signal_send(table=table, seat=4, signal="hoi-dai", by=festival.trung_quan)
    table.refresh_from_db()
    context = van_form_context(table)
    assert context["state"]["u_seats"] == [4, 1]
    assert context["winner"] == 4  # Dũng's long roll came after An's red flag (seat order ticked An)


def test_a_new_vans_first_signal_takes_the_last_result_off_the_display(festival: Any) -> None:
    from tournaments.console import services

    table = festival.table
    services.van_start(table=table)
    services.van_finish(
        table=table,
        seq=1,
        record={"winner": "Bình", "cuoc": ["tom"]},
        by=festival.trung_quan,
        idempotency_key=None,
    )
    table.refresh_from_db()
    assert table.announcement and table.announcement["winner"] == "Bình"
    services.signal_send(table=table, seat=3, signal="tung", by=festival.trung_quan)
    table.refresh_from_db()
    assert table.announcement is None  # the seats are in sight again
