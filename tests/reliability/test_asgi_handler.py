"""The ASGI entry point (``totom_site/asgi.py``): the middleware and view chain is entered once.

Django's stock ASGI handler hands every middleware's ``process_request`` and ``process_response``
to the sync thread separately (about thirty hand-overs a request here, 4 to 5 ms of CPU); ours
runs the chain synchronously after a single hand-over. These tests drive the real ``application``
with ASGI messages, count the hand-overs, and check that what the chain does is unchanged:
responses, middleware headers, errors, and the audience display's event stream.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from tests.console.conftest import Festival, festival  # noqa: F401 (the fixture, used below)
from totom_site.asgi import OneHopASGIHandler, application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def handovers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The name of every sync callable handed to a thread while the test runs."""
    seen: list[str] = []
    original = SyncToAsync.__call__

    async def counting(self: SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        seen.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counting)
    yield seen


def _scope(path: str, method: str = "GET", headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"host", b"testserver"), *(headers or [])], "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80)}


Response = tuple[int, dict[bytes, bytes], bytes]


async def _get(app: ASGIHandler, path: str, headers: list[tuple[bytes, bytes]] | None = None,
               whole: bool = True) -> Response:
    """One request through ``app``: its status, headers and body (the first chunk if not ``whole``)."""
    talk = ApplicationCommunicator(app, _scope(path, headers=headers))
    await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await talk.receive_output(10)
    body = b""
    while True:
        part = await talk.receive_output(10)
        body += part.get("body", b"")
        if not whole and body:
            break
        if not part.get("more_body"):
            break
    if not whole:
        await talk.send_input({"type": "http.disconnect"})
    await talk.wait(10)  # the application ends (an open stream once the client has gone)
    return start["status"], {k.lower(): v for k, v in start["headers"]}, body


def _run(request: Coroutine[Any, Any, Response]) -> Response:
    """Run ``request`` on a new event loop in its own thread (a browser test of the same session
    may keep a loop running in this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, request).result()


def test_a_request_enters_the_sync_chain_once(handovers: list[str]) -> None:
    """The stock handler hands each middleware over on its own; ours hands the chain over once,
    besides Django's own hand-overs for the request signals and the response's close."""
    status, headers, body = _run(_get(application, "/api/v1/clubs", [(b"accept", b"application/json")]))
    assert status == 200, body
    assert json.loads(body) is not None
    ours = len(handovers)
    handovers.clear()
    _run(_get(ASGIHandler(), "/api/v1/clubs", [(b"accept", b"application/json")]))
    stock = len(handovers)
    assert ours <= 3, handovers
    # Django 5.2 runs its async-capable middleware on the loop, so the stock handler's hand-overs
    # are the sync-only middleware's (7 here): more than ours, not the thirty this handler was for.
    assert stock > ours, (ours, stock)


def test_middleware_still_applies() -> None:
    """Security headers, the language cookie's locale and the CSRF cookie come from middleware."""
    status, headers, body = _run(_get(application, "/dang-nhap/"))
    assert status == 200
    assert headers[b"x-frame-options"] == b"DENY"
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert b"csrftoken" in headers.get(b"set-cookie", b"")
    assert "Đăng nhập".encode() in body
    status, _headers, body = _run(_get(application, "/en/dang-nhap/"))
    assert status == 200 and b"Log in" in body


def test_errors_are_answered_by_the_project_pages() -> None:
    status, _headers, body = _run(_get(application, "/khong-co-trang-nay/"))
    assert status == 404
    assert "Không tìm thấy".encode() in body


def test_the_audience_display_still_streams(festival: Festival) -> None:  # noqa: F811 (the fixture)
    """The SSE view returns an async stream: the handler sends it from the event loop, open-ended
    (the first events arrive, the response stays open until the client goes)."""
    path = f"/su-kien/ban/{festival.table.pk}/"
    status, headers, first = _run(_get(application, path, [(b"accept", b"text/event-stream")], whole=False))
    assert status == 200
    assert headers[b"content-type"].startswith(b"text/event-stream")
    assert b"event: stream-open" in first or first.startswith(b":")


def test_the_application_is_the_one_hop_handler() -> None:
    assert isinstance(application, OneHopASGIHandler)
