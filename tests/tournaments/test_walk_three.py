"""Issue 31, item 1, on the events' side: the standings CSV and the page write the same number of
points per ván; the round sheet's QR opens the table's page (where a PIN scorekeeper gets the PIN
form), not the sổ điểm that needs an account; a list of players is checked in at once."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client

from tests.reports.conftest import pdf_text

pytestmark = [pytest.mark.django_db]


def _rows_csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


# -- the standings CSV writes the page's number ---------------------------------------------------


def test_the_standings_csv_writes_points_per_van_as_the_page_does(client: Client, seated: Any) -> None:
    """The page said "68,0" and the CSV "68.0": now the same two decimals, the CSV with a point
    (scoring/reports/tabular.py: one format for every CSV), the page with the Vietnamese comma."""
    from tournaments.services.leaderboard import rebuild_leaderboard
    from tournaments.services.van import event_van_record

    event, tables = seated
    names = [s.name for s in tables[0].sitting.seats.order_by("position")]
    event_van_record(
        table=tables[0], seq=1, record={"winner": names[0], "cuoc": ["tom"]}, idempotency_key=None
    )
    rebuild_leaderboard(event_id=event.pk, force=True)
    page = client.get(f"/giai/{event.slug}/").content.decode()
    rows = _rows_csv(client.get(f"/giai/{event.slug}/xuat/bang-xep-hang.csv").content)
    winner = next(r for r in rows[1:] if r and r[1] == names[0])
    assert winner[7] == "32.00", winner  # 32 points in 1 ván, two decimals, a point
    shown = re.findall(r'data-testid="per-van">([^<]*)<', page)
    assert "32,00" in shown, shown
    assert winner[7].replace(".", ",") in shown


# -- the round's score sheet: its QR opens the table's page (a PIN scorekeeper's way in) ----------


def test_the_round_sheet_qr_opens_the_table_page_that_asks_a_pin(
    client: Client, own: Any, organiser: Any
) -> None:
    event, tables = own
    client.force_login(organiser)
    text = " ".join(pdf_text(client.get(f"/giai/{event.slug}/quan-ly/bang-diem/vong-1.pdf").content).split())
    table_url = f"/giai/{event.slug}/chieu/{tables[0].pk}/"
    assert table_url in text.replace(" ", ""), text[:800]  # the address printed under the QR (wrapped)
    assert f"/so-diem/{tables[0].sitting_id}/" not in text
    visitor = Client().get(table_url)  # the phone that scanned it, with no account
    assert visitor.status_code == 403 and 'name="pin"' in visitor.content.decode()


# -- check in a whole list at once -----------------------------------------------------------------


def test_check_in_everyone_checks_in_the_registered_not_the_withdrawn(
    client: Client, make_event: Any, organiser: Any
) -> None:
    from tournaments.models import Registration, RegistrationStatus
    from tournaments.services.events import registration_withdraw

    event = make_event(checked_in=3)
    event.organisers.add(organiser)
    gone = Registration.objects.filter(event=event, status=RegistrationStatus.REGISTERED).first()
    registration_withdraw(registration=gone)
    client.force_login(organiser)
    page = client.get(f"/giai/{event.slug}/quan-ly/").content.decode()
    assert 'data-testid="check-in-all"' in page and "6 người chưa điểm danh" in page
    answer = client.post(f"/giai/{event.slug}/quan-ly/diem-danh-tat-ca/", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Đã điểm danh 6 người." in answer.content.decode()
    statuses = dict(Registration.objects.filter(event=event).values_list("pk", "status"))
    assert statuses.pop(gone.pk) == RegistrationStatus.WITHDRAWN
    assert set(statuses.values()) == {RegistrationStatus.CHECKED_IN}
    assert 'data-testid="check-in-all"' not in answer.content.decode()  # no one left to check in


def test_only_the_events_organisers_may_check_everyone_in(
    client: Client, make_event: Any, django_user_model: Any
) -> None:
    from tournaments.models import Registration, RegistrationStatus

    event = make_event(checked_in=0)
    client.force_login(django_user_model.objects.create_user("nguoi-ngoai"))
    assert client.post(f"/giai/{event.slug}/quan-ly/diem-danh-tat-ca/").status_code in (403, 404)
    assert not Registration.objects.filter(event=event, status=RegistrationStatus.CHECKED_IN).exists()
