"""Content-Security-Policy in a real browser: no violation on the main pages, a script without the nonce blocked.

Finding 14 of issue 20: no page sent a Content-Security-Policy. Every answer now carries one
(django-csp 4, ``CONTENT_SECURITY_POLICY`` in settings): scripts and styles from the site only, the
few inline ``<style>`` blocks with the request's nonce, no inline script, no style attribute. Chromium
loads the main pages through daphne (htmx, the sổ điểm's service worker, Chart.js, the console and
the audience display with their SSE stream, Swagger UI) and must report no violation and no console
error; the display must still receive a signal live, Swagger UI must still draw the API. Then a
script injected without the nonce must not run (and one with it must: the control).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from tests.reliability.harness import AppServer
from tests.reliability.probe_setup import small_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Records every CSP violation the page reports (run by Playwright before the page's own scripts;
#: injected by the browser's debugging protocol, so the policy does not apply to it).
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def server(django_db_setup: Any) -> Iterator[str]:
    """daphne on the test database, started after collectstatic (whitenoise serves var/staticfiles
    as it found them when it started)."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    daphne = AppServer()
    daphne.start()
    try:
        yield f"http://127.0.0.1:{daphne.port}"
    finally:
        daphne.stop()


@pytest.fixture
def world() -> dict[str, Any]:
    from scoring.models import ClubRole, ClubRoleKind
    from scoring.services.people import club_create
    from scoring.services.sittings import sitting_open, van_record
    from tournaments.console.services import ensure_catalogue, signal_send, table_open

    small = small_event(prefix="C", game="to-tom-diem")
    organiser = small.organiser
    club = club_create(name="Làng Đông Ngạc", slug="lang-dong-ngac").obj
    ClubRole.objects.create(user=organiser, club=club, role=ClubRoleKind.ORGANISER)
    sitting = sitting_open(
        game="to-tom-5",
        rules="luat-2005",
        mode="quang",
        club=club,
        created_by=organiser,
        players=["An", "Bình", "Chi", "Dũng", "Em"],
        title="Canh tối",
    ).obj
    for seq, winner in enumerate(["An", "Bình"], start=1):
        van_record(
            sitting=sitting,
            seq=seq,
            record={"winner": winner, "cuoc": ["tom"]},
            idempotency_key=None,
            entered_by=organiser,
        )
    ensure_catalogue()
    festival = table_open(
        name="Sân đình", event_table=small.table, trung_quan=organiser, created_by=organiser
    )
    signal_send(table=festival, seat=2, signal="tung", by=organiser)
    client = Client()
    client.force_login(organiser)
    slug = small.event.slug
    pages = {
        "calculator": "/",
        "kiểm bài": "/kiem-bai/",
        "lệ làng": "/le-lang/",
        "sign-in": "/dang-nhap/",
        "English calculator": "/en/",
        "sổ điểm list": "/so-diem/",
        "sổ điểm": f"/so-diem/{sitting.pk}/",
        "correction": f"/so-diem/{sitting.pk}/van/1/sua/",
        "exports and chart": f"/so-diem/{sitting.pk}/in-xuat/",
        "sitting audit": f"/so-diem/{sitting.pk}/nhat-ky/",
        "club": f"/lang/{club.slug}/",
        "events": "/giai/",
        "scoreboard": f"/giai/{slug}/",
        "projector": f"/giai/{slug}/man-chieu/",
        "manage event": f"/giai/{slug}/quan-ly/",
        "check-in cards": f"/giai/{slug}/quan-ly/the-diem-danh/",
        "table": small.table_url(),
        "console": f"/trung-quan/{festival.pk}/",
        "timeline": f"/man-hinh/{festival.pk}/dien-bien/",
        "API docs": "/api/docs/",
        # The club book: sparklines (server-drawn SVG), the season's chart (Chart.js), htmx period chooser
        "club book": f"/lang/{club.slug}/so/",
        "close a period": f"/lang/{club.slug}/so/chot/",
        "member statement": f"/lang/{club.slug}/so/nguoi-choi/{sitting.seats.get(position=1).player_id}/",
        **_connection_pages(club, small.event, organiser),
    }
    return {
        "session": client.cookies["sessionid"].value,
        "pages": pages,
        "festival": festival,
        "organiser": organiser,
    }


def _connection_pages(club: Any, event: Any, organiser: Any) -> dict[str, str]:
    """The online app's connection pages (platform tokens, webhooks) and a webhook's delivery log."""
    from django.urls import reverse

    from tournaments.online.models import Webhook

    hook = Webhook.objects.create(
        club=club,
        url="https://nen-tang.example/hook",
        events=["van.recorded"],
        secret="s" * 43,
        created_by=organiser,
    )
    return {
        "club connections": reverse("online:club_connections", args=[club.slug]),
        "event connections": reverse("online:event_connections", args=[event.slug]),
        "webhook log": reverse("online:club_hook_log", args=[club.slug, hook.pk]),
    }


def _page(browser: Any, base: str, session: str | None) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(locale="vi-VN", viewport={"width": 390, "height": 844})
    if session:
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return context, page, errors


def _correction_url(pages: dict[str, str]) -> None:
    """The correction page's address (the sổ điểm names it ``sua``; checked, not guessed)."""
    from django.urls import reverse

    sitting = int(pages["sổ điểm"].strip("/").split("/")[-1])
    pages["correction"] = reverse("scoring:van_correct", args=[sitting, 1])


def test_no_csp_violation_on_the_main_pages(
    browser: Any, server: str, world: dict[str, Any], probe: Any
) -> None:
    _correction_url(world["pages"])
    context, page, errors = _page(browser, server, world["session"])
    try:
        for what, path in world["pages"].items():
            errors.clear()
            answer = page.goto(server + path, wait_until="networkidle")
            assert answer is not None and answer.status == 200, (what, answer and answer.status)
            policy = answer.headers.get("content-security-policy", "")
            if what == "sổ điểm":  # the service worker registers under the policy
                page.evaluate("navigator.serviceWorker && navigator.serviceWorker.ready")
            if what == "API docs":  # Swagger UI still draws the API (its start-up script is a file)
                page.locator(".swagger-ui .info .title").filter(has_text="Sổ Tôm API").wait_for()
            page.wait_for_timeout(300)
            violations = page.evaluate("window.__csp")
            probe.check(
                "script-src 'self'" in policy and not violations and not errors,
                f"{what}: policy {policy!r}, violations {violations}, console errors {errors}",
            )
    finally:
        context.close()


def test_the_display_still_streams_under_the_policy(
    browser: Any, server: str, world: dict[str, Any], probe: Any
) -> None:
    from tournaments.console.services import signal_send

    context, page, errors = _page(browser, server, None)
    try:
        page.goto(f"{server}/man-hinh/{world['festival'].pk}/", wait_until="domcontentloaded")
        page.wait_for_timeout(1500)  # the EventSource connects
        signal_send(table=world["festival"], seat=3, signal="tung-tung", by=world["organiser"])
        shown = True
        try:
            page.get_by_text("Phỗng").first.wait_for(timeout=15_000)
        except Exception:
            shown = False
        probe.check(shown, "the display did not show the signal sent after it opened (SSE)")
        probe.check(
            not page.evaluate("window.__csp") and not errors,
            f"display: violations {page.evaluate('window.__csp')}, console errors {errors}",
        )
    finally:
        context.close()


INJECT = """
(nonce) => {
  const s = document.createElement("script");
  if (nonce) { s.nonce = nonce; }
  s.textContent = "window.__ran = (window.__ran || 0) + 1;";
  document.head.appendChild(s);
  return window.__ran || 0;
}
"""


def test_a_script_without_the_nonce_is_blocked(
    browser: Any, server: str, world: dict[str, Any], probe: Any
) -> None:
    context, page, _errors = _page(browser, server, world["session"])
    try:
        page.goto(f"{server}/trung-quan/{world['festival'].pk}/", wait_until="networkidle")
        ran = page.evaluate(INJECT, None)
        violations = page.evaluate("window.__csp")
        probe.check(
            ran == 0 and any(v.startswith("script-src") for v in violations),
            f"an inline script without the nonce ran ({ran}), violations {violations}",
        )
        nonce = page.evaluate("document.querySelector('style[nonce]').nonce")
        probe.check(
            bool(nonce) and page.evaluate(INJECT, nonce) == 1,
            "the control: a script with the page's nonce did not run",
        )
        page.evaluate("""() => { const d = document.createElement("div");
                                 d.setAttribute("style", "color: red"); document.body.appendChild(d); }""")
        page.wait_for_timeout(200)
        probe.check(
            any(v.startswith("style-src") for v in page.evaluate("window.__csp")),
            "a style attribute was not reported as blocked",
        )
    finally:
        context.close()
