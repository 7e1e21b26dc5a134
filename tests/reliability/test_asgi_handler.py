"""The ASGI entry point (``totom_site/asgi.py``): pages and the API on Django's WSGI handler in a
thread pool, the audience display's event streams on Django's ASGI handler.

These tests drive the real ``application`` with ASGI messages and check that pages take no
hand-over to a sync thread, that what the middleware does is unchanged (headers, errors), and that
the display's stream still streams (through the WSGI handler it would never send its first event).
"""

from __future__ import annotations

import asyncio
import json
import threading
import traceback
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from asgiref.sync import SyncToAsync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from tests.console.conftest import Festival, festival  # noqa: F401 (the fixture, used below)
from totom_site.asgi import application

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


def _scope(
    path: str, method: str = "GET", headers: list[tuple[bytes, bytes]] | None = None
) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


Response = tuple[int, dict[bytes, bytes], bytes]
T = TypeVar("T")


async def _get(
    app: ASGIHandler, path: str, headers: list[tuple[bytes, bytes]] | None = None, whole: bool = True
) -> Response:
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
    answered: dict[bytes, bytes] = {}
    for name, value in start["headers"]:  # a repeated header (two Set-Cookie) joined, not dropped
        key = name.lower()
        answered[key] = answered[key] + b", " + value if key in answered else value
    return start["status"], answered, body


def _run(request: Coroutine[Any, Any, T]) -> T:
    """Run ``request`` on a new event loop in its own thread (a browser test of the same session
    may keep a loop running in this one)."""
    answer: list[T] = []
    failed: list[BaseException] = []
    loops: list[asyncio.AbstractEventLoop] = []

    async def on_its_loop() -> T:
        loops.append(asyncio.get_running_loop())
        return await request

    def run() -> None:
        try:
            answer.append(asyncio.run(on_its_loop()))
        except BaseException as error:  # handed to the test's thread
            failed.append(error)

    # A daemon thread, waited for 60 s at most: an application task that ignored its cancellation
    # would hold asyncio.run's shutdown, and the whole run with it; this test fails instead.
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(60)
    if failed:
        raise failed[0]
    if not answer:  # which tasks held the loop, for the failure's report
        held = [
            f"{task!r}\n" + "".join(traceback.format_stack(task.get_stack()[-1]) if task.get_stack() else [])
            for task in (asyncio.all_tasks(loops[0]) if loops else ())
        ]
        pytest.fail("the request's event loop did not end within 60 s; its tasks:\n" + "\n".join(held))
    return answer[0]


def test_pages_run_on_the_wsgi_threads_with_no_hand_over(handovers: list[str]) -> None:
    """A page or API request runs the middleware and the view in one thread of the WSGI pool: no
    ``sync_to_async`` hand-over at all, where Django's ASGI handler makes several (one per
    sync-only middleware hook, and the request signals)."""
    status, headers, body = _run(_get(application, "/api/v1/clubs", [(b"accept", b"application/json")]))
    assert status == 200, body
    assert json.loads(body) is not None
    assert handovers == []
    _run(_get(ASGIHandler(), "/api/v1/clubs", [(b"accept", b"application/json")]))
    assert len(handovers) >= 3, handovers


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


def test_the_audience_display_still_streams(
    festival: Festival,  # noqa: F811 (the fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The SSE view returns an async stream: the handler sends it from the event loop, open-ended
    (the first events arrive, the response stays open until the client goes).

    django-eventstream starts its Redis listener once per process, as a task on the loop of the
    first stream (a server's one loop). Here that would be this request's short-lived loop, whose
    shutdown then waits on the listener's cancellation: this loop held a run for 60 s, once in a
    few. The listener is not what this test is about: it is marked started."""
    from django_eventstream.views import get_listener_manager

    monkeypatch.setattr(get_listener_manager(), "redis_listener_started", True)
    path = f"/su-kien/ban/{festival.table.pk}/"
    status, headers, first = _run(_get(application, path, [(b"accept", b"text/event-stream")], whole=False))
    assert status == 200
    assert headers[b"content-type"].startswith(b"text/event-stream")
    assert b"event: stream-open" in first or first.startswith(b":")


def test_lifespan_is_answered() -> None:
    """granian (``make run``) opens with the ASGI lifespan messages: answered, not an error."""

    async def lifespan() -> list[str]:
        talk = ApplicationCommunicator(application, {"type": "lifespan", "asgi": {"version": "3.0"}})
        await talk.send_input({"type": "lifespan.startup"})
        first = await talk.receive_output(5)
        await talk.send_input({"type": "lifespan.shutdown"})
        second = await talk.receive_output(5)
        return [first["type"], second["type"]]

    assert _run(lifespan()) == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_a_post_body_is_read_when_receive_is_not_a_coroutine() -> None:
    """granian's ``receive()`` returns an awaitable that is not a coroutine; the WSGI side reads a
    POST's body from a thread and needs one. A scorekeeper's POST opening a sitting with players as
    a bare list is refused for what its body says (the players), not with a parse error or a 500."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=get_user_model().objects.create_user("thu-ky-post")).key

    class Awaitable:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __await__(self) -> Any:
            return self.inner.__await__()

    async def post() -> tuple[int, bytes]:
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        body = json.dumps(
            {
                "game": "to-tom-5",
                "rules": "luat-2005",
                "mode": "quang",
                "players": ["An", "Bình", "Chi", "Dũng", "Em"],
            }
        ).encode()
        await inbox.put({"type": "http.request", "body": body, "more_body": False})
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = _scope(
            "/api/v1/sittings",
            "POST",
            [
                (b"content-type", b"application/json"),
                (b"authorization", f"Token {token}".encode()),
                (b"idempotency-key", b"post-through-wsgi-1"),
            ],
        )
        await application(scope, lambda: Awaitable(inbox.get()), send)
        return int(sent[0]["status"]), b"".join(m.get("body", b"") for m in sent[1:])

    status, body = _run(post())
    assert status == 400 and b"'players'" in body, body
