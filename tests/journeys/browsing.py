"""The people of a journey, each a real Chromium browser context (vi-VN) on the stack, and what
they must never see: a console error, an uncaught page error or a 5xx answer.

Every page of every context is watched from the moment it opens. A step that provokes an error on
purpose (a duplicate name answers 400, and Chromium logs "Failed to load resource: … 400") says so
with :meth:`Screens.allowing`, naming what it expects; anything else fails the journey.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.journeys.stack import DEMO_PASSWORD, DEMO_USER, Stack

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
PROJECTOR = {"width": 1600, "height": 900}
LAPTOP = {"width": 1280, "height": 900}


class Screens:
    """The browser contexts of one journey, with every console error they log."""

    def __init__(self, browser: Any, stack: Stack) -> None:
        self.browser, self.stack = browser, stack
        self.errors: list[str] = []
        self.tolerated: list[str] = []
        self._allowed: list[re.Pattern[str]] = []
        self._contexts: list[Any] = []

    def open(
        self, viewport: dict[str, int] = PHONE, *, touch: bool = True, service_workers: str = "block"
    ) -> Any:
        """A new person's browser (a context of its own, so its own cookies) and its first page."""
        context = self.browser.new_context(
            locale="vi-VN", viewport=viewport, has_touch=touch, service_workers=service_workers
        )
        context.set_default_timeout(15_000)
        context.on("page", self._watch)
        self._contexts.append(context)
        return context.new_page()

    def _watch(self, page: Any) -> None:
        page.on(
            "console",
            lambda msg: msg.type == "error" and self._saw(page, f"{msg.text} ({msg.location.get('url')})"),
        )
        page.on("pageerror", lambda exc: self._saw(page, f"uncaught: {exc}"))
        page.on("response", lambda r: r.status >= 500 and self._saw(page, f"{r.status} from {r.url}"))

    def _saw(self, page: Any, text: str) -> None:
        where = page.url.removeprefix(self.stack.url)
        if any(p.search(text) for p in self._allowed):
            self.tolerated.append(f"{where}: {text}")
        else:
            self.errors.append(f"{where}: {text}")

    @contextmanager
    def allowing(self, *patterns: str) -> Iterator[None]:
        """Console errors matching ``patterns`` are expected inside the block (and only there)."""
        compiled = [re.compile(p) for p in patterns]
        self._allowed.extend(compiled)
        try:
            yield
        finally:
            for p in compiled:
                self._allowed.remove(p)

    def check(self) -> None:
        """Fail if any page logged an error it was not expected to."""
        errors, self.errors = self.errors, []
        assert not errors, "the browser logged errors:\n" + "\n".join(errors)

    def close(self) -> None:
        for context in self._contexts:
            context.close()
        self._contexts.clear()


def sign_in(page: Any, base: str, username: str = DEMO_USER, password: str = DEMO_PASSWORD) -> None:
    """Sign in through the sign-in page, as a person would."""
    page.goto(f"{base}/dang-nhap/")
    page.get_by_label("Tên đăng nhập").fill(username)
    page.get_by_label("Mật khẩu").fill(password)
    page.get_by_test_id("login").click()
    page.get_by_test_id("logout").wait_for()


def sign_up(page: Any, base: str, username: str, password: str) -> None:
    """Make an account on the sign-up page (it signs the new account in)."""
    page.goto(f"{base}/dang-ky/")
    form = page.get_by_test_id("signup-form")
    form.locator("input[name=username]").fill(username)
    for box in form.locator("input[type=password]").all():
        box.fill(password)
    page.get_by_test_id("signup").click()
    page.get_by_test_id("logout").filter(has_text=username).wait_for()
