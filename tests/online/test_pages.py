"""The "Kết nối nền tảng" pages of a club and of an event: only their managers; a token and a
webhook secret shown once; revoke, switch off, "send test" and the delivery log (htmx partials and
plain forms); Vietnamese first, English under /en/; on a 390 px phone in Chromium."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.online.receiver import Receiver

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_only_managers_open_the_connection_pages(
    club: Any, make_event: Any, organiser: Any, django_user_model: Any
) -> None:
    from scoring.models import ClubRole, ClubRoleKind

    event = make_event()
    private = make_event(name="Hội kín", is_public=False)
    keeper = django_user_model.objects.create_user("thu-ky-lang")
    ClubRole.objects.create(user=keeper, club=club, role=ClubRoleKind.SCOREKEEPER)
    paths = [f"/lang/{club.slug}/ket-noi/", f"/giai/{event.slug}/quan-ly/ket-noi/"]
    for path in paths:
        assert Client().get(path).status_code == 302  # to sign in
        assert signed_in(keeper).get(path).status_code == 403
        mine = signed_in(organiser).get(path)
        assert mine.status_code == 200 and "Kết nối nền tảng" in mine.content.decode()
    assert signed_in(keeper).get(f"/giai/{private.slug}/quan-ly/ket-noi/").status_code == 404
    english = signed_in(organiser).get(f"/en/lang/{club.slug}/ket-noi/").content.decode()
    assert (
        "Platform connections" in english
        and "Register a webhook" in english
        and "Kết nối nền tảng" not in english
    )
    assert f"/lang/{club.slug}/ket-noi/" in signed_in(organiser).get(f"/lang/{club.slug}/").content.decode()
    assert (
        f"/giai/{event.slug}/quan-ly/ket-noi/"
        in signed_in(organiser).get(f"/giai/{event.slug}/quan-ly/").content.decode()
    )


def test_a_token_is_shown_once_then_only_its_prefix_and_it_can_be_revoked(club: Any, organiser: Any) -> None:
    from tournaments.online.models import PlatformToken

    client = signed_in(organiser)
    base = f"/lang/{club.slug}/ket-noi/"
    made = client.post(f"{base}ma/", {"label": "Chiếu Online", "access": "ghi"}, HTTP_HX_REQUEST="true")
    assert made.status_code == 201
    html = made.content.decode()
    assert html.lstrip().startswith('<section id="tokens"')  # the htmx partial only
    raw = re.search(r'data-testid="token-value">([^<]+)<', html).group(1)
    token = PlatformToken.objects.get()
    assert raw.startswith(token.prefix) and token.access == "ghi" and token.created_by == organiser
    again = client.get(base).content.decode()
    assert raw not in again and f"{token.prefix}…" in again
    assert Client().get("/api/v1/sittings", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    revoked = client.post(f"{base}ma/{token.pk}/thu-hoi/", HTTP_HX_REQUEST="true")
    assert revoked.status_code == 200 and "đã thu hồi" in revoked.content.decode()
    assert Client().get("/api/v1/sittings", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
    blank = client.post(f"{base}ma/", {"label": "", "access": "ghi"})
    assert blank.status_code == 400


def test_a_private_address_is_refused_on_the_page_unless_allowed(
    club: Any, organiser: Any, settings: Any
) -> None:
    client = signed_in(organiser)
    base = f"/lang/{club.slug}/ket-noi/webhook/"
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    refused = client.post(base, {"url": "http://127.0.0.1:8000/hook", "events": ["van.recorded"]})
    assert refused.status_code == 400 and "mạng nội bộ" in refused.content.decode()
    english = client.post(f"/en{base}", {"url": "http://10.0.0.1/hook", "events": ["van.recorded"]})
    assert "private network" in english.content.decode()
    assert client.post(base, {"url": "https://example.com/hook"}).status_code == 400  # no event chosen


def test_send_test_and_the_delivery_log(
    club: Any,
    organiser: Any,
    webhook_settings: Any,
    receiver: Receiver,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.online import tasks
    from tournaments.online.models import Webhook
    from tournaments.online.services.webhooks import attempt

    monkeypatch.setattr(
        tasks.deliver_webhook, "delay", lambda pk: attempt(delivery_id=pk)
    )  # deliver at once, here
    client = signed_in(organiser)
    base = f"/lang/{club.slug}/ket-noi/"
    made = client.post(f"{base}webhook/", {"url": receiver.url, "events": ["van.recorded", "round.seated"]})
    assert made.status_code == 201
    secret = re.search(r'data-testid="secret-value">([^<]+)<', made.content.decode()).group(1)
    hook = Webhook.objects.get()
    assert hook.secret == secret and secret not in client.get(base).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        tested = client.post(f"{base}webhook/{hook.pk}/gui-thu/")
    assert tested.status_code == 302 and tested["Location"].endswith(f"{base}webhook/{hook.pk}/")
    [got] = receiver.requests
    assert got.headers["X-SoTom-Event"] == "ping"
    log = client.get(tested["Location"]).content.decode()
    assert 'data-status="da_gui"' in log and "Đã gửi" in log and "mã trả lời 200" in log
    assert "every 2s" not in log  # nothing pending: the log stops polling
    off = client.post(f"{base}webhook/{hook.pk}/tat/", HTTP_HX_REQUEST="true")
    assert off.status_code == 200 and "đã tắt" in off.content.decode()
    assert client.post(f"{base}webhook/{hook.pk}/gui-thu/", HTTP_HX_REQUEST="true").status_code == 400


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_connects_a_platform_on_a_phone(
    live_server: Any, phone: Any, club: Any, organiser: Any, settings: Any
) -> None:
    from tests.conftest import sign_in

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    sign_in(phone.context, live_server.url, organiser)
    phone.goto(f"{live_server.url}/lang/{club.slug}/")
    phone.get_by_role("link", name="Kết nối nền tảng").click()
    phone.get_by_label("Tên nền tảng").fill("Chiếu Online")
    phone.get_by_label("Quyền").select_option("ghi")
    phone.get_by_role("button", name="Tạo mã").click()
    token = phone.get_by_test_id("token-value").inner_text()
    assert token.startswith("sotom_")
    phone.get_by_label("Địa chỉ nhận (URL)").fill("http://127.0.0.1:9/hook")
    phone.get_by_label("Ván được ghi").check()
    phone.get_by_role("button", name="Đăng ký").click()
    assert phone.get_by_test_id("secret-value").inner_text().startswith("whsec_")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    phone.reload()
    assert token not in phone.content()
