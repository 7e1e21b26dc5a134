"""Accessibility of every page of the site map (issue 19, "Accessibility"), in real Chromium on the
embedded default (`make run`'s SQLite stack; the pages are the same templates on PostgreSQL):

* axe-core (vendored: tests/a11y/vendor) finds no serious or critical WCAG 2.2 A/AA violation on any
  page, in Vietnamese and in English (/en/), contrast included;
* on a phone at 200 % zoom (a 390 px phone shows 195 CSS px) nothing is cut off or wider than the
  screen (tests/a11y/cut_off.js);
* screenshots of the phone, tablet and projector layouts are written to var/screens/ for a reviewer.

The pages and the person who opens each (a visitor, or the demo account) are the site map's own
(tests/journeys/test_site_map.py), so a new page is covered as soon as it is in the URLconf.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import translate_url

from tests.a11y.checks import add_axe, axe_violations, cut_off, describe
from tests.journeys.browsing import LAPTOP, PHONE, Screens, sign_in
from tests.journeys.stack import ROOT, Stack
from tests.journeys.test_site_map import STAFF, discover, site_map, url_of

pytestmark = [pytest.mark.browser]

SCREENS = ROOT / "var" / "screens"
#: A 390 px phone at 200 % zoom: half the CSS pixels, each drawn twice as big.
ZOOMED_PHONE = {"width": 195, "height": 422}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}
#: Pages whose layout is a library's, not ours (axe-core still walks them).
NOT_OURS = {
    "/api/docs/": "Swagger UI (drf-spectacular-sidecar): the API's reference for developers, its own layout"
}


def _only_on_the_embedded_default(stack: Stack) -> None:
    if stack.config != "sqlite":
        pytest.skip(
            "the same pages and templates on both configurations: walked once, on the embedded default"
        )


def _pages(
    stack: Stack, screens: Screens, viewport: dict[str, int], **context: Any
) -> tuple[Any, Any, list[tuple[str, str]]]:
    """(visitor page, member page, [(name, path)] of every page in both languages), each context
    with axe-core."""
    pages, _unknown = site_map()
    member = screens.open(LAPTOP, touch=False)
    sign_in(member, stack.url)
    demo = discover(member, stack.url)
    paths = []
    for name, params in pages:
        path = url_of(name, params, demo)
        english = translate_url(path, "en")  # the same page under /en/ (pages outside i18n_patterns: itself)
        paths += [(name, path)] + ([(name, english)] if english != path else [])
    visitor, signed_in = (
        screens.browser.new_context(locale="vi-VN", viewport=viewport, **context) for _ in "ab"
    )
    signed_in.add_cookies(member.context.cookies())
    for c in (visitor, signed_in):
        add_axe(c)
        c.set_default_timeout(15_000)
        c.on("page", screens._watch)
        screens._contexts.append(c)
    return visitor.new_page(), signed_in.new_page(), paths


def _open(page: Any, url: str) -> int:
    response = page.goto(url)
    assert response is not None, url
    page.wait_for_timeout(150)  # scripts that run after the load (charts, streams) have their say
    return int(response.status)


def _who(visitor: Any, member: Any, url: str) -> Any:
    probe = visitor.request.get(url, max_redirects=0)
    return visitor if probe.status == 200 else member


def test_every_page_in_both_languages_has_no_serious_axe_violation(stack: Stack, screens: Screens) -> None:
    _only_on_the_embedded_default(stack)
    visitor, member, paths = _pages(stack, screens, LAPTOP)
    found: dict[str, str] = {}
    for name, path in paths:
        url = stack.url + path
        page = _who(visitor, member, url)
        with screens.allowing(r"status of 403 \(Forbidden\)"):
            status = _open(page, url)
        assert status == (403 if name in STAFF and page is member else 200), (path, status)
        violations = axe_violations(page)
        if violations:
            found[path] = describe(violations)
    assert not found, "serious or critical axe-core violations:\n" + "\n".join(
        f"{p}\n{v}" for p, v in found.items()
    )
    assert len(paths) >= 60 and sum(p.startswith("/en/") for _n, p in paths) >= 30
    print(f"axe-core: {len(paths)} pages (both languages), no serious or critical violation")


def test_every_page_at_200_percent_zoom_on_a_phone_cuts_nothing_off(stack: Stack, screens: Screens) -> None:
    _only_on_the_embedded_default(stack)
    visitor, member, paths = _pages(stack, screens, ZOOMED_PHONE, device_scale_factor=2, has_touch=True)
    found: dict[str, list[str]] = {}
    for _name, path in paths:
        if path.startswith("/en/") or path in NOT_OURS:
            continue  # the layout is the language's: the Vietnamese words are the longer ones
        url = stack.url + path
        page = _who(visitor, member, url)
        with screens.allowing(r"status of 403 \(Forbidden\)"):
            _open(page, url)
        problems = cut_off(page)
        if problems:
            found[path] = problems
    assert not found, "cut off at 200 % zoom on a 390 px phone:\n" + "\n".join(
        f"{p}\n  " + "\n  ".join(v[:6]) for p, v in found.items()
    )


def _shoot(page: Any, url: str, name: str) -> Path:
    _open(page, url)
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def test_screenshots_of_the_phone_tablet_and_projector_layouts(stack: Stack, screens: Screens) -> None:
    """For a reviewer: var/screens/<layout>-<page>.png, each layout checked to fit its screen's width."""
    _only_on_the_embedded_default(stack)
    member = screens.open(LAPTOP, touch=False)
    sign_in(member, stack.url)
    demo = discover(member, stack.url)
    cookies = member.context.cookies()
    shots = {
        "phone": (
            PHONE,
            [
                ("so-diem", url_of("scoring:sitting", ["pk"], demo)),
                ("quan-ly", url_of("tournaments:manage", ["slug"], demo)),
                ("man-hinh", url_of("console:display", ["pk"], demo)),
                ("le-lang", "/le-lang/"),
            ],
        ),
        "tablet": (
            TABLET,
            [
                ("trung-quan", url_of("console:console", ["pk"], demo)),
                ("so-diem", url_of("scoring:sitting", ["pk"], demo)),
            ],
        ),
        "projector": (
            PROJECTOR,
            [
                ("man-hinh", url_of("console:display", ["pk"], demo)),
                ("le-lang", "/le-lang/"),
                ("bang-diem", url_of("tournaments:scoreboard", ["slug"], demo)),
            ],
        ),
    }
    written = []
    for layout, (viewport, pages) in shots.items():
        context = screens.browser.new_context(
            locale="vi-VN", viewport=viewport, has_touch=layout != "projector"
        )
        screens._contexts.append(context)
        context.add_cookies(cookies)
        page = context.new_page()
        for name, path in pages:
            written.append(_shoot(page, stack.url + path, f"{layout}-{name}"))
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], (
                f"{layout} {path}: {width} px wide on a {viewport['width']} px screen"
            )
    assert all(p.stat().st_size > 5_000 for p in written)
    print("screenshots: " + ", ".join(str(p.relative_to(ROOT)) for p in written))
