"""ASGI entry point (daphne).

Django's own ASGI handler runs the middleware in async mode: every ``MiddlewareMixin`` middleware
then hands its ``process_request`` and ``process_response`` to the sync thread one by one, and the
view goes through the same hand-over for each of its hooks: about thirty thread hand-overs a
request with this project's eleven middleware, 4 to 5 ms of CPU on this project's machines, more
than a page's own work. Every view here is synchronous (the audience display's SSE view included:
it returns a response whose async stream the handler sends from the event loop), so this handler
builds the middleware and view chain in sync mode and enters it once: one hand-over per request,
plus Django's own for the ``request_started`` and ``request_finished`` signals.
``docs/reliability.md`` ("Load") has the figures.
"""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with the whole middleware and view chain run synchronously, entered
    through a single ``sync_to_async``."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)


def get_application() -> OneHopASGIHandler:
    """What ``get_asgi_application`` does, with the one-hop handler."""
    django.setup(set_prefix=False)
    return OneHopASGIHandler()


application = get_application()
