"""Every page of the site, on each configuration: 200 and not one console error in Chromium.

The site map is built from the URLconf, so a new page cannot be forgotten: each URL pattern is a
page to open, or is skipped for a stated reason (files, form actions, htmx fragments, the API,
Django's admin); a pattern that is neither fails the test. Parameters come from the demo that
`make run` loads, found on its pages as a person finds them (the organiser's page links its
tables, the sổ điểm lists its canh…). Each page is asked for as a visitor first (without a
browser); a page that answers a visitor 200 is opened by a visitor, one that sends a visitor to
sign in (or answers 403, such as a table's PIN page) is opened signed in as the demo account, and
must then answer 200.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.journeys.browsing import LAPTOP, Screens, sign_in
from tests.journeys.stack import Stack
from tournaments.demo import DEMO_EVENT

pytestmark = [pytest.mark.browser]

#: Whole namespaces that are not pages.
SKIP_NAMESPACES = {
    "api": "the JSON API (tests/reliability/test_api_schema.py walks it)",
    "console-api": "the console's JSON API (tests/console/test_api.py)",
    "events-api": "the events' JSON API and the import (tests/reliability/test_api_schema.py walks it)",
    "admin": "Django's admin, for staff, not one of the app's pages",
}
#: Patterns whose route ends in a file's extension are downloads, not pages (the organiser's and
#: the scorekeeper's journeys and tests/reports open the files and check what they hold).
FILE = re.compile(r"\.(csv|xlsx|pdf|json|js|webmanifest|crt)$")
#: Every other pattern that is not a page, and why.
SKIP = {
    "set_language": "a form action (POST): the language switch",
    "logout": "a form action (POST)",
    "schema": "the OpenAPI schema (YAML), not a page",
    "javascript-catalog": "a script: the pages' translations",
    "console-events": "the live display's Server-Sent Events stream, opened by the display page",
    "board-events": "a public board's Server-Sent Events stream, opened by the scoreboard and projector pages",
    "tournaments:register": "a form action (POST) of the organiser's page",
    "tournaments:register_list": "a form action (POST) of the organiser's page (a pasted or uploaded list)",
    "tournaments:check_in": "a form action (POST) of the organiser's page",
    "tournaments:check_in_all": "a form action (POST) of the organiser's page (check in everyone)",
    "favicon": "a redirect to the app's icon (tests/browser/test_walk_three.py)",
    "tournaments:withdraw": "a form action (POST) of the organiser's page",
    "tournaments:seat_round": "a form action (POST) of the organiser's page",
    "tournaments:recompute": "the organiser's page's recompute panel (htmx: POST, and its progress polled)",
    "tournaments:finish": "a form action (POST) of the organiser's page",
    "tournaments:check_in_qr": "an htmx fragment: a player's QR code, loaded into the organiser's page",
    "tournaments:role_add": "a form action (POST) of the organiser's page",
    "tournaments:role_end": "a form action (POST) of the organiser's page",
    "tournaments:organiser_revoke": "a form action (POST) of the organiser's page",
    "tournaments:table_close": "a form action (POST) of the table's page",
    "tournaments:table_substitute": "a form action (POST) of the table's page",
    "tournaments:table_token_new": "a form action (POST) of the table's page",
    "tournaments:table_token_end": "a form action (POST) of the table's page",
    "tournaments:table_pin_unlock": "a form action (POST) of the table's page",
    "tournaments:table_holder": "a form action (POST) of the table's PIN page (who holds the phone)",
    "console:live": "an htmx fragment: the console's live part",
    "console:signal": "a button's action (POST) on the console",
    "console:noc": "a button's action (POST) on the console",
    "console:turn": "a button's action (POST) on the console",
    "console:dealer": "a button's action (POST) on the console",
    "console:van_start": "a button's action (POST) on the console",
    "console:van_form": "an htmx fragment: the console's ván form",
    "console:van_record": "a form action (POST) on the console",
    "console:bat_cai": "a form action (POST) on the console",
    "console:u_de": "a form action (POST) on the console",
    "scoring:van_preview": "an htmx fragment (POST): the ván form's live preview",
    "scoring:van_record": "a form action (POST) of the sổ điểm",
    "scoring:van_confirm": "a form action (POST) of the sổ điểm",
    "scoring:van_reject": "a form action (POST) of the sổ điểm",
    "scoring:club_role_grant": "a form action (POST) of the village's page",
    "scoring:club_role_revoke": "a form action (POST) of the village's page",
    "scoring:club_player_link": "a form action (POST) of the village's page",
    "scoring:club_close_reverse": "a form action (POST) of the club book's page: undo a close",
    "scoring:club_ratings_rebuild": "a form action (POST) of the club book's page: rebuild the ratings",
    **{
        f"online:{kind}_{action}": f"a form action (POST) of the {kind}'s connection page"
        for kind in ("club", "event")
        for action in ("token_new", "token_end", "hook_new", "hook_end", "hook_test", "hook_resume")
    },
    **{
        f"online:{kind}_hook_log": "a webhook's delivery log: the demo has no webhook (tests/online/test_pages.py "
        "and tests/reliability/test_probe_csp.py open it)"
        for kind in ("club", "event")
    },
}

#: Pages for staff only: the demo account is not staff, so they must refuse it with the app's
#: own page (403), nothing worse.
STAFF = {"scoring:rules_audit": "Chỉ quản trị viên mới xem được nhật ký lệ làng."}


def patterns(
    resolver: URLResolver | None = None, namespace: str = "", route: str = ""
) -> Iterator[tuple[str, str, list[str]]]:
    """(name, route, parameters) of every URL pattern, namespaces included."""
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            inner = ":".join(n for n in (namespace, p.namespace or "") if n)
            yield from patterns(p, inner, route + str(p.pattern))
        elif isinstance(p, URLPattern):
            name = ":".join(n for n in (namespace, p.name or f"<unnamed {route}{p.pattern}>") if n)
            yield name, route + str(p.pattern), list(getattr(p.pattern, "converters", {}))


def site_map() -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The pages to open (name, parameters), and the patterns neither a page nor skipped."""
    pages, unknown = [], []
    for name, route, params in patterns():
        if name.split(":")[0] in SKIP_NAMESPACES or name in SKIP or FILE.search(route):
            continue
        if name.startswith("<") or ":<unnamed" in name:
            unknown.append(name)
            continue
        pages.append((name, params))
    return pages, unknown


def test_every_url_pattern_is_a_page_or_skipped_for_a_reason() -> None:
    """The site map itself: nothing unclassified, and no stale skip."""
    pages, unknown = site_map()
    assert not unknown, f"name these URL patterns, or skip them with a reason: {unknown}"
    names = {name for name, _route, _params in patterns()}
    assert not set(SKIP) - names, f"skipped but gone from the URLconf: {set(SKIP) - names}"
    assert len(pages) >= 30


def discover(page: Any, base: str) -> dict[str, Any]:
    """The demo's ids, found on its pages (signed in as the demo account)."""
    found: dict[str, Any] = {"event": DEMO_EVENT["slug"], "club": "lang-mau-dong-ngac", "number": 1, "seq": 1}
    page.goto(f"{base}/giai/{found['event']}/quan-ly/")
    table = page.get_by_test_id("table-link").first.get_attribute("href") or ""
    found["table_id"] = int(re.search(r"/chieu/(\d+)/", table).group(1))  # type: ignore[union-attr]
    qr = page.locator("li[data-player] details.qr").first.get_attribute("hx-get") or ""
    found["reg_id"] = int(re.search(r"/qr/(\d+)/", qr).group(1))  # type: ignore[union-attr]
    page.goto(f"{base}/giai/{found['event']}/quan-ly/the-diem-danh/")
    found["token"] = page.locator("code.link").first.inner_text().rstrip("/").rsplit("/", 1)[1]
    page.goto(f"{base}/so-diem/")
    sitting = page.get_by_role("link", name=re.compile("Canh bài mẫu ở đình làng")).first.get_attribute(
        "href"
    )
    found["sitting"] = int(re.search(r"/so-diem/(\d+)/", urljoin(base, sitting)).group(1))  # type: ignore[union-attr]
    page.goto(f"{base}/lang/{found['club']}/so/")
    member = page.locator("[data-testid^=statement-link-]").first.get_attribute("data-testid") or ""
    found["member"] = int(member.rsplit("-", 1)[1])
    page.goto(f"{base}/trung-quan/")
    console = page.get_by_role("link", name="Mở bàn Trung Quân").first.get_attribute("href") or ""
    found["console"] = int(re.search(r"/trung-quan/(\d+)/", console).group(1))  # type: ignore[union-attr]
    return found


def url_of(name: str, params: list[str], demo: dict[str, Any]) -> str:
    values = {
        "slug": demo["club"] if name.startswith(("scoring:", "online:club_")) else demo["event"],
        "pk": demo["console"] if name.startswith("console:") else demo["sitting"],
        "table_id": demo["table_id"],
        "token": demo["token"],
        "reg_id": demo["reg_id"],
        "number": demo["number"],
        "seq": demo["seq"],
        "player_id": demo["member"],
    }
    missing = [p for p in params if p not in values]
    assert not missing, f"{name}: no demo value for {missing}; add one to url_of()"
    return reverse(name, kwargs={p: values[p] for p in params})


def opened(page: Any, url: str) -> tuple[int, str]:
    response = page.goto(url)
    assert response is not None, url
    page.wait_for_timeout(150)  # scripts that run after the load (charts, streams, polls) have their say
    return response.status, page.url


def test_every_page_of_the_site_map_answers_200_with_no_console_error(stack: Stack, screens: Screens) -> None:
    pages, _unknown = site_map()
    member = screens.open(LAPTOP, touch=False)
    sign_in(member, stack.url)
    demo = discover(member, stack.url)
    visitor = screens.open(LAPTOP, touch=False)
    seen: dict[str, str] = {}
    for name, params in pages:
        url = stack.url + url_of(name, params, demo)
        # Who may open it: asked without a browser (no redirect followed), then opened by that person.
        probe = visitor.request.get(url, max_redirects=0)
        if probe.status == 200:
            status, landed = opened(visitor, url)
            assert status == 200 and landed == url, (name, url, status, landed)
            seen[name] = "visitor"
            continue
        to_login = probe.status == 302 and "/dang-nhap/" in probe.headers.get("location", "")
        assert probe.status == 403 or to_login, (name, url, probe.status, probe.headers.get("location"))
        if name in STAFF:
            with screens.allowing(r"status of 403 \(Forbidden\)"):
                status, landed = opened(member, url)
            assert status == 403 and STAFF[name] in member.locator("main").inner_text(), (name, status)
            seen[name] = "staff only: refused"
            continue
        status, landed = opened(member, url)
        assert status == 200 and landed == url, (name, url, status, landed)
        seen[name] = "signed in"
    assert len(seen) == len(pages)
    assert seen["tournaments:manage"] == "signed in" and seen["tournaments:scoreboard"] == "visitor"
    print(f"{stack.config}: {len(seen)} pages, {sum(v == 'signed in' for v in seen.values())} signed in")
