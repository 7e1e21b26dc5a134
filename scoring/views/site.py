"""Site-wide small answers: ``/favicon.ico``, which browsers and bookmarks ask for by that name
whatever the page's ``<link rel="icon">`` says (it answered 404)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

__all__ = ["favicon"]

#: The icon the pages and the offline app already use.
ICON = "offline/icons/so-tom-192.png"


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """A redirect to the app's icon under its static (hashed) name, kept a day by the browser."""
    response = HttpResponseRedirect(static(ICON))
    patch_cache_control(response, public=True, max_age=24 * 3600)
    return response
