"""The app on Django's ASGI handler for every request, the ways it was served before the split
(``totom_site/asgi.py``): for the choice of server in ``bench/serving.py --layouts`` only.

* ``stock``: Django's own handler (``get_asgi_application``), as daphne served it until then;
* ``one_hop``: the custom handler ``totom_site/asgi.py`` carried (issue 22 item 6 asks whether it
  is worth keeping): the middleware and view chain built in sync mode and entered through a single
  ``sync_to_async`` (it set Django's private ``_middleware_chain``).
"""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
django.setup(set_prefix=False)


class OneHopASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


class _Lifespan:
    """granian sends lifespan first; Django's handler refuses any scope but http."""

    def __init__(self, app: ASGIHandler) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return
        await self.app(scope, receive, send)


stock = _Lifespan(ASGIHandler())
one_hop = _Lifespan(OneHopASGIHandler())
