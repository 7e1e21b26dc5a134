"""The reference project as the app is served (``totom_site/asgi.py``): Django's WSGI handler in
the same pool of threads under granian's ASGI interface."""

import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reference.settings")
_pages = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("SOTOM_THREADS", "4")))


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    """As totom_site/asgi.py sends pages: ``receive`` wrapped as a coroutine for a2wsgi."""

    async def receive_coroutine():  # type: ignore[no-untyped-def]
        return await receive()

    await _pages(scope, receive_coroutine, send)
