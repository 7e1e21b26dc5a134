"""After the organiser makes the results final ("Chốt kết quả"), no ván is recorded anywhere in
the event: the table page stops offering the form and says why, a page left open is refused
(422, with the reason), and the Trung Quân's console of a chiếu is refused too."""

from __future__ import annotations

import pytest

from scoring.models import Van
from tests.tournaments.conftest import seat_names
from tournaments.console.services import ensure_catalogue, table_open, van_finish
from tournaments.models import Event
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.events import check_in, event_create, event_finish, registration_add
from tournaments.services.rounds import round_seat
from tournaments.services.van import EventFinished, event_van_record

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
FINAL = "Giải đã chốt kết quả chính thức"


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def test_no_van_is_recorded_once_the_results_are_final(client, own, organiser) -> None:
    event, (t1, _t2) = own
    winner = seat_names(t1)[0]
    event_van_record(table=t1, seq=1, record={"winner": winner, "cuoc": ["tom"]}, idempotency_key="before")
    event_finish(event=event)
    with pytest.raises(EventFinished, match=FINAL):
        event_van_record(table=t1, seq=2, record={"winner": winner, "cuoc": ["tom"]}, idempotency_key="after")
    client.force_login(organiser)
    url = f"/giai/{event.slug}/chieu/{t1.pk}/"
    page = client.get(url).content.decode()
    assert 'data-testid="finished"' in page and 'name="winner"' not in page
    stale = client.post(
        url, {"seq": 2, "canh": t1.sitting_id, "key": "late", "winner": winner, "cuoc": ["tom"]}, **HTMX
    )
    assert stale.status_code == 409 and FINAL in stale.content.decode()
    assert Van.objects.filter(sitting=t1.sitting).count() == 1


def test_the_console_of_a_chieu_is_refused_once_the_results_are_final(own, organiser) -> None:
    event, _tables = own
    ensure_catalogue()
    diem = event_create(name="Hội làng Tổ Tôm Điếm", date=event.date, game="to-tom-diem", rules="luat-2005")
    for name in ["An", "Bình", "Chi", "Dũng", "Em"]:
        check_in(registration=registration_add(event=diem, name=name))
    table = round_seat(event=diem, method="random", seed=3).tables.get()
    console = table_open(name="Chiếu giữa sân", event_table=table, trung_quan=organiser)
    event_finish(event=Event.objects.get(pk=diem.pk))
    with pytest.raises(EventFinished):
        van_finish(
            table=console,
            seq=1,
            record={"winner": seat_names(table)[0], "cuoc": ["tom"]},
            by=organiser,
            idempotency_key="tq",
        )
    assert not Van.objects.filter(sitting=table.sitting).exists()
