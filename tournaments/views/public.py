"""Public pages: the list of events, the scoreboard, the projector, the check-in link, exports.

The scoreboard and the projector are served from the stored leaderboard (one query for the
event and its board), never computed per request, and rendered once per state
(:mod:`tournaments.board`, which also pushes each new board to the pages' streams). Their board
partial asks with the tag of what it shows (every 2 s, or every 10 minutes when boards are pushed);
while nothing changed the answer is an empty 204 (htmx swaps nothing).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_http_methods

from scoring.engine import EngineError
from scoring.htmx import is_htmx
from tournaments.access import public_event, statement_access
from tournaments.board import BOARD_CACHE_SECONDS, channel_for, languages, page_named, render_board
from tournaments.console.views.display import stream
from tournaments.exports import standings_csv, statement_csv
from tournaments.models import Registration
from tournaments.selectors.pages import BoardState, board_state, is_organiser, visible_events
from tournaments.services.events import check_in_by_token
from tournaments.views.common import error_status, page


def event_list(request: HttpRequest) -> HttpResponse:
    events = visible_events(request.user).order_by("-date", "-id")[:100]
    return page(request, "tournaments/event_list.html", {"events": events})


#: Stands for the CSRF token in a page rendered once for every anonymous visitor; each answer
#: puts that visitor's own token in its place.
CSRF_SLOT = "csrf-slot-7d1f0c2b9e"


def _anonymous_page(request: HttpRequest, template: str, state: BoardState, board_html: str) -> HttpResponse:
    """The whole page for a visitor who is not signed in (no organiser links, no messages):
    rendered once per leaderboard state, language and address, like the board itself."""
    key = (
        f"tournaments:page:{state.event.pk}:{state.tag}:{template}:{get_language()}:{request.get_full_path()}"
    )
    html = cache.get(key)
    if html is None:
        context = {
            "nav": "tournaments",
            "event": state.event,
            "board_html": board_html,
            "organiser": False,
            "csrf_token": CSRF_SLOT,
        }
        html = render_to_string(template, context, request)
        cache.set(key, html, BOARD_CACHE_SECONDS)
    response = HttpResponse(html.replace(CSRF_SLOT, get_token(request)))
    return response


def _board(request: HttpRequest, slug: str, page_slug: str) -> HttpResponse:
    event = public_event(request, slug)
    state = board_state(event)
    if is_htmx(request) and request.GET.get("v") == state.tag:
        return HttpResponse(status=204)
    board_page = page_named(page_slug)
    assert board_page is not None
    board_html = render_board(state, board_page, get_language())
    if is_htmx(request):
        response = HttpResponse(board_html)
    elif not request.user.is_authenticated:
        response = _anonymous_page(request, board_page.template, state, board_html)
    else:
        context = {"event": event, "board_html": board_html, "organiser": is_organiser(request.user, event)}
        response = page(request, board_page.template, context)
    response["Cache-Control"] = "no-cache"
    return response


def scoreboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The top of the standings (a phone in the crowd); the whole table is :func:`scoreboard_all`."""
    return _board(request, slug, "bang")


def scoreboard_all(request: HttpRequest, slug: str) -> HttpResponse:
    return _board(request, slug, "tat-ca")


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    return _board(request, slug, "chieu")


def board_events(request: HttpRequest, slug: str, page_slug: str, language: str) -> HttpResponse:
    """A board page's stream (django-eventstream; :mod:`tournaments.board`): 404 for an event the
    request may not see, a page that is not a board's or a language the site does not speak; the
    channel manager asks the same rule again when the stream opens."""
    event = public_event(request, slug)
    if page_named(page_slug) is None or language not in languages() or not settings.BOARD_PUSH:
        raise Http404(gettext("Không có giải này."))
    return stream(request, channel_for(event.pk, page_slug, language))


@require_http_methods(["GET", "POST"])
def check_in_link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's personal link (the QR code): a big button; the POST checks them in."""
    reg = get_object_or_404(
        Registration.objects.select_related("player", "event"), event__slug=slug, token=token
    )
    error, failed = None, None
    if request.method == "POST":
        try:
            reg = check_in_by_token(token=token)
        except EngineError as exc:
            error, failed = exc.message, exc
    return page(
        request,
        "tournaments/check_in.html",
        {"reg": reg, "event": reg.event, "error": error},
        partial="status",
        status=error_status(failed),
    )


def export_standings(request: HttpRequest, slug: str) -> HttpResponse:
    return standings_csv(public_event(request, slug, fresh=True))


@statement_access
def export_statement(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    return statement_csv(public_event(request, slug, fresh=True), player_id)
