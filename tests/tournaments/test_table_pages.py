"""The table page for organisers and for scorekeepers with a token (QR link or PIN), its clock,
QR codes (check-in cards, a table's entry page) and the scoreboard's top of the table."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.conftest import seat_names
from tournaments import board
from tournaments.models import Registration, ScorekeeperToken, Table
from tournaments.services import leaderboard as leaderboard_module
from tournaments.services.leaderboard import rebuild_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.tokens import token_issue, token_revoke

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _no_queue(monkeypatch) -> None:
    monkeypatch.setattr(leaderboard_module, "queue_recompute", lambda *a, **k: None)


def _van(client, url: str, table: Table, winner: str, key: str):
    table.refresh_from_db()
    seq = table.sitting.van.filter(is_current=True).count() + 1
    return client.post(
        url, {"seq": seq, "canh": table.sitting_id, "key": key, "winner": winner, "cuoc": ["tom"]}, **HTMX
    )


def test_a_scorekeeper_enters_van_with_the_qr_link_until_it_is_revoked(client, own, organiser) -> None:
    event, (t1, t2) = own
    token = token_issue(table=t1, label="Ông Tư", created_by=organiser)
    url = f"/giai/{event.slug}/chieu/{t1.pk}/"
    assert client.get(url).status_code == 403  # no login, no token: the PIN form
    landing = client.get(f"{url}?ma={token.secret}")
    assert landing.status_code == 302 and landing["Location"] == url  # the secret leaves the address bar
    page = client.get(url).content.decode()
    assert "Ghi ván" in page and "Thu hồi" not in page and "Đóng chiếu" not in page  # entry only
    winner = seat_names(t1)[1]
    assert f"{winner} ù 8" in _van(client, url, t1, winner, "k1").content.decode()
    assert t1.sitting.van.get().entered_by is None
    assert client.get(f"/giai/{event.slug}/chieu/{t2.pk}/").status_code == 403  # one table only
    assert client.post(f"/giai/{event.slug}/chieu/{t1.pk}/dong/").status_code == 302  # to the login page
    token_revoke(token=token)
    assert _van(client, url, t1, winner, "k2").status_code == 403  # at once, on a device already let in
    assert t1.sitting.van.count() == 1


def test_a_scorekeeper_enters_with_the_pin(client, own, organiser) -> None:
    event, (t1, _t2) = own
    token = token_issue(table=t1, created_by=organiser)
    wrong = "000000" if token.pin != "000000" else "111111"
    pin_url = f"/giai/{event.slug}/chieu/{t1.pk}/ma-pin/"
    refused = client.post(pin_url, {"pin": wrong})
    assert refused.status_code == 422 and "Mã PIN không đúng" in refused.content.decode()
    assert client.post(pin_url, {"pin": token.pin})["Location"] == f"/giai/{event.slug}/chieu/{t1.pk}/"
    assert client.get(f"/giai/{event.slug}/chieu/{t1.pk}/").status_code == 200


def test_the_organiser_issues_and_revokes_tokens_on_the_table_page(client, own, organiser) -> None:
    event, (t1, _t2) = own
    client.force_login(organiser)
    url = f"/giai/{event.slug}/chieu/{t1.pk}/"
    client.post(f"{url}ma-ghi/", {"label": "Bà Năm"})
    token = ScorekeeperToken.objects.get(table=t1)
    page = client.get(url).content.decode()
    assert f"?ma={token.secret}" in page and token.pin in page and "Bà Năm" in page
    assert page.count("<svg") >= 2  # the table's entry page and the token's link, as QR codes
    client.post(f"{url}ma-ghi/{token.pk}/thu-hoi/")
    token.refresh_from_db()
    assert token.revoked_at is not None and token.secret not in client.get(url).content.decode()


def test_the_timed_table_page_shows_a_live_clock_and_a_close_button(client, make_event, organiser) -> None:
    event = make_event(round_format="gio", minutes_per_round=20)
    event.organisers.add(organiser)
    round_seat(event=event, method="random", seed=1)
    t1 = Table.objects.filter(event=event).order_by("number").first()
    client.force_login(organiser)
    url = f"/giai/{event.slug}/chieu/{t1.pk}/"
    page = client.get(url).content.decode()
    ends = re.search(r'data-ends-at="([^"]+)"', page).group(1)
    assert ends == timezone.localtime(t1.ends_at).isoformat()  # the stored end time drives the clock
    assert "tournaments/clock.js" in page and 'data-when-over="primary"' in page
    Table.objects.filter(pk=t1.pk).update(ends_at=timezone.now() - timedelta(minutes=1))
    over = client.get(url).content.decode()
    assert "Đã hết giờ" in over and 'class="clock over"' in over
    assert client.post(f"{url}dong/")["Location"] == url
    closed = client.get(url).content.decode()
    assert 'data-testid="closed"' in closed and 'name="winner"' not in closed


def test_the_organiser_seats_a_substitute_from_the_table_page(client, make_event, organiser) -> None:
    from tournaments.services.events import registration_add

    event = make_event()
    event.organisers.add(organiser)
    spare = registration_add(event=event, name="Phúc", team="Giáp Nam")
    round_seat(event=event, method="random", seed=11)
    t1 = Table.objects.filter(event=event).order_by("number").first()
    client.force_login(organiser)
    url = f"/giai/{event.slug}/chieu/{t1.pk}/"
    assert "Thay người" in client.get(url).content.decode()
    out = Registration.objects.get(event=event, player__name=seat_names(t1)[0])
    client.post(f"{url}thay-nguoi/", {"out": out.player_id, "in": spare.pk})
    t1.refresh_from_db()
    assert seat_names(t1)[0] == "Phúc"
    assert "Phúc đã vào thay" in client.get(url).content.decode()


def test_check_in_cards_and_the_registration_list_draw_qr_codes(client, own, organiser) -> None:
    event, _tables = own
    client.force_login(organiser)
    cards = client.get(f"/giai/{event.slug}/quan-ly/the-diem-danh/").content.decode()
    regs = list(Registration.objects.filter(event=event))
    assert cards.count('class="checkin-card"') == len(regs) == cards.count("<svg")
    assert all(f"/diem-danh/{r.token}/" in cards for r in regs)
    one = client.get(f"/giai/{event.slug}/quan-ly/the-diem-danh/", {"reg": regs[0].pk}).content.decode()
    assert one.count('class="checkin-card"') == 1
    fragment = client.get(f"/giai/{event.slug}/quan-ly/qr/{regs[0].pk}/").content.decode()
    assert fragment.startswith('<div class="qr-code"') and "<svg" in fragment and "<html" not in fragment
    manage = client.get(f"/giai/{event.slug}/quan-ly/").content.decode()
    assert f"/quan-ly/qr/{regs[0].pk}/" in manage and 'hx-trigger="toggle once"' in manage
    client.logout()
    assert client.get(f"/giai/{event.slug}/quan-ly/the-diem-danh/").status_code == 302


def test_the_scoreboard_shows_the_top_and_links_to_the_whole_table(client, seated, monkeypatch) -> None:
    event, _tables = seated
    rebuild_leaderboard(event_id=event.pk)
    monkeypatch.setattr(board, "SCOREBOARD_ROWS", 3)
    top = client.get(f"/giai/{event.slug}/").content.decode()
    assert top.count("<tr data-player=") == 3 and 'data-testid="see-all"' in top
    whole = client.get(f"/giai/{event.slug}/bang-day-du/").content.decode()
    assert whole.count("<tr data-player=") == 10 and 'data-testid="see-all"' not in whole
