"""ASGI entry point: what ``make run`` serves (``totom_site/serve.py``: granian) and what daphne or
any ASGI server can serve.

Pages and the API are synchronous Django views; the event streams are the only asynchronous
ones. So, as Django apps are usually deployed (Tabbycat splits HTTP and websockets
the same way), the requests go two ways behind one address:

* the event streams (``/su-kien/``: an audience display's, ``ban/<id>/``; a public board's,
  ``bang/<event>/<page>/<language>/``) to Django's stock ASGI handler, which
  sends their async stream from the event loop, open-ended, without holding a thread;
* everything else to Django's **WSGI** handler in a pool of ``SOTOM_THREADS`` threads (a2wsgi):
  the middleware and the view run in one thread, no hand-over per middleware hook, and each
  thread keeps its database connection (PostgreSQL: the pool ``serve.py`` turns on).

``docs/performance.md`` ("Serving") has the measurements that chose this over Django's ASGI handler
for everything (with or without the one-hop handler this file used to carry) and over a separate
WSGI server behind a proxy.
"""

from __future__ import annotations

import os
from typing import Any

import django
from a2wsgi import WSGIMiddleware
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.wsgi import WSGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")

STREAMS = "/su-kien/"  # the SSE views, and only they (totom_site/urls.py)


class Application:
    """One ASGI application: the event streams on Django's ASGI handler, the rest on its WSGI
    handler in a thread pool."""

    def __init__(self, threads: int) -> None:
        django.setup(set_prefix=False)
        self.streams = ASGIHandler()
        self.wsgi = WSGIHandler()
        self.pages = WSGIMiddleware(self.wsgi, workers=threads)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(STREAMS):
            await self.streams(scope, receive, send)
        else:  # http, and lifespan (a2wsgi answers it: nothing to start or stop)
            await self.pages(scope, coroutine(receive), send)


def coroutine(receive: Any) -> Any:
    """``receive`` as a coroutine function: a2wsgi reads a request's body from its threads with
    ``asyncio.run_coroutine_threadsafe(receive())``, which refuses granian's ``receive()`` (an
    awaitable that is not a coroutine): every POST would be a 500."""

    async def receive_coroutine() -> Any:
        return await receive()

    return receive_coroutine


application = Application(threads=int(os.environ.get("SOTOM_THREADS", "4")))
