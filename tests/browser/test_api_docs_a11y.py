"""The API reference (/api/docs/, drf-spectacular's Swagger UI) passes axe-core once Swagger UI has
drawn every operation: the site-map walk (tests/journeys/test_accessibility.py) could look before it
had, and then failed or passed by timing. Swagger UI's own colours failed contrast, and its deep
links nested a link in each operation's button (a 19 px touch target): settings turn the deep links
off and the page's style block darkens the colours."""

from __future__ import annotations

from typing import Any

from tests.a11y.checks import add_axe, axe_violations, describe


def test_the_api_reference_has_no_serious_axe_violation_once_drawn(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    add_axe(context)
    page = context.new_page()
    page.goto(live_server.url + "/api/docs/")
    page.locator(".opblock-summary-method").first.wait_for()
    assert page.locator(".opblock").count() > 20  # every operation drawn, not a blank page
    violations = axe_violations(page)
    context.close()
    assert not violations, "serious or critical axe-core violations:\n" + describe(violations)
