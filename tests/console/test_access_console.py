"""Who runs a festival table (``tournaments.run_console``): its own Trung Quân, the Trung Quân of
the event of its chiếu (event-wide or for that chiếu), the event's organisers; nobody else, on the
console pages and the hardware API alike. The audience display and timeline stay public."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import FIVE
from tournaments.console import services
from tournaments.console.models import FestivalTable, SignalEvent
from tournaments.models import Event, EventRole, EventRoleKind, Round, Table

pytestmark = pytest.mark.django_db


@dataclass
class Festival2:
    event: Event
    chieu: list[Table]
    tables: list[FestivalTable]


def _chieu(event: Event, rnd: Round, number: int, festival_table: FestivalTable) -> Table:
    table = Table.objects.create(round=rnd, number=number, sitting=festival_table.sitting, event=event)
    FestivalTable.objects.filter(pk=festival_table.pk).update(event_table=table, trung_quan=None)
    return table


@pytest.fixture
def hoi(festival: Any) -> Festival2:
    """An event with two chiếu, each with its console table (none with a Trung Quân of its own)."""
    sitting = festival.table.sitting
    event = Event.objects.create(
        name="Hội làng Đông Ngạc",
        slug="hoi-dong-ngac",
        date=dt.date(2026, 2, 22),
        game=sitting.game,
        rules=sitting.rules,
    )
    rnd = Round.objects.create(event=event, number=1, method="random")
    other = services.table_open(name="Chiếu giữa sân", players=list(FIVE))
    chieu = [_chieu(event, rnd, 1, festival.table), _chieu(event, rnd, 2, other)]
    return Festival2(
        event,
        chieu,
        [FestivalTable.objects.get(pk=festival.table.pk), FestivalTable.objects.get(pk=other.pk)],
    )


def browser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def listed(user: Any) -> set[int]:
    """The festival tables the console's list offers to run."""
    page = browser(user).get("/trung-quan/").content.decode()
    return {t.pk for t in FestivalTable.objects.all() if f'href="/trung-quan/{t.pk}/"' in page}


def can_open(user: Any, table: FestivalTable) -> bool:
    status = browser(user).get(f"/trung-quan/{table.pk}/").status_code
    assert status in (200, 403), status
    return status == 200


def can_signal(user: Any, table: FestivalTable) -> bool:
    response = api(user).post(
        f"/api/v1/tables/{table.pk}/signals", {"seat": 3, "signal": "tung-tung"}, format="json"
    )
    assert response.status_code in (201, 403), response.content
    return response.status_code == 201


def test_the_events_trung_quan_runs_every_console_of_the_event(
    hoi: Festival2, django_user_model: Any
) -> None:
    tq = django_user_model.objects.create_user("trung-quan-hoi")
    assert not can_open(tq, hoi.tables[0])
    EventRole.objects.create(user=tq, event=hoi.event, role=EventRoleKind.TRUNG_QUAN)
    for table in hoi.tables:
        assert can_open(tq, table) and can_signal(tq, table)
    assert listed(tq) == {t.pk for t in hoi.tables}


def test_a_trung_quan_of_one_chieu_is_refused_at_the_other(hoi: Festival2, django_user_model: Any) -> None:
    tq = django_user_model.objects.create_user("trung-quan-chieu-1")
    EventRole.objects.create(user=tq, event=hoi.event, role=EventRoleKind.TRUNG_QUAN, table=hoi.chieu[0])
    assert can_open(tq, hoi.tables[0]) and can_signal(tq, hoi.tables[0])
    assert not can_open(tq, hoi.tables[1]) and not can_signal(tq, hoi.tables[1])
    assert listed(tq) == {hoi.tables[0].pk}
    assert SignalEvent.objects.filter(table=hoi.tables[1]).count() == 0


def test_the_tables_own_trung_quan_still_runs_it(hoi: Festival2, django_user_model: Any) -> None:
    own = django_user_model.objects.create_user("trung-quan-rieng")
    FestivalTable.objects.filter(pk=hoi.tables[1].pk).update(trung_quan=own)
    assert can_open(own, hoi.tables[1]) and can_signal(own, hoi.tables[1])
    assert not can_open(own, hoi.tables[0])


def test_the_events_organisers_run_its_consoles(hoi: Festival2, django_user_model: Any) -> None:
    organiser = django_user_model.objects.create_user("ban-to-chuc-hoi")
    hoi.event.organisers.add(organiser)
    assert all(can_open(organiser, t) and can_signal(organiser, t) for t in hoi.tables)


def test_another_events_organiser_and_this_events_scorekeeper_may_not(
    hoi: Festival2, django_user_model: Any
) -> None:
    other_event = Event.objects.create(
        name="Hội làng bên",
        slug="hoi-lang-ben",
        date=dt.date(2026, 2, 23),
        game=hoi.event.game,
        rules=hoi.event.rules,
    )
    stranger = django_user_model.objects.create_user("ban-to-chuc-lang-ben")
    other_event.organisers.add(stranger)
    EventRole.objects.create(user=stranger, event=other_event, role=EventRoleKind.TRUNG_QUAN)
    scorekeeper = django_user_model.objects.create_user("thu-ky-hoi")
    EventRole.objects.create(user=scorekeeper, event=hoi.event, role=EventRoleKind.SCOREKEEPER)
    for user in (stranger, scorekeeper):
        for table in hoi.tables:
            assert not can_open(user, table) and not can_signal(user, table)
            assert (
                browser(user)
                .post(
                    f"/trung-quan/{table.pk}/hieu/",
                    {"seat": 3, "signal": "tung-tung"},
                    HTTP_HX_REQUEST="true",
                )
                .status_code
                == 403
            )
        assert listed(user) == set()
    assert not SignalEvent.objects.exists()


def test_revoking_the_role_takes_the_console_away_at_once(hoi: Festival2, django_user_model: Any) -> None:
    tq = django_user_model.objects.create_user("trung-quan-hoi")
    role = EventRole.objects.create(user=tq, event=hoi.event, role=EventRoleKind.TRUNG_QUAN)
    client = browser(tq)
    assert client.get(f"/trung-quan/{hoi.tables[0].pk}/").status_code == 200
    role.delete()
    assert client.get(f"/trung-quan/{hoi.tables[0].pk}/").status_code == 403


def test_the_events_trung_quan_may_open_a_console_for_a_chieu_without_one(
    hoi: Festival2, django_user_model: Any
) -> None:
    spare = services.table_open(name="Chiếu dự bị", players=list(FIVE))
    sitting = spare.sitting
    spare.delete()
    chieu = Table.objects.create(round=hoi.chieu[0].round, number=3, sitting=sitting, event=hoi.event)
    tq = django_user_model.objects.create_user("trung-quan-hoi")
    client = browser(tq)
    assert f'value="{chieu.pk}"' not in client.get("/trung-quan/").content.decode()
    EventRole.objects.create(user=tq, event=hoi.event, role=EventRoleKind.TRUNG_QUAN)
    assert f'value="{chieu.pk}"' in client.get("/trung-quan/").content.decode()
    opened = client.post("/trung-quan/", {"event_table": chieu.pk})
    assert opened.status_code == 302
    assert FestivalTable.objects.get(event_table=chieu).trung_quan == tq


def test_the_display_and_timeline_stay_public(hoi: Festival2) -> None:
    for table in hoi.tables:
        assert Client().get(f"/man-hinh/{table.pk}/").status_code == 200
        assert Client().get(f"/man-hinh/{table.pk}/dien-bien/").status_code == 200
