"""Public pages: the list of events, the scoreboard, the projector, the check-in link, exports.

The scoreboard and the projector are served from the stored leaderboard (one query for the
event and its board), never computed per request. Their board partial polls every 2 s with the
tag of what it shows; while nothing changed the answer is an empty 204 (htmx swaps nothing).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from scoring.engine import EngineError
from scoring.htmx import is_htmx
from tournaments.access import public_event, statement_access
from tournaments.exports import standings_csv, statement_csv
from tournaments.models import Leaderboard, Registration
from tournaments.selectors.pages import BoardState, board_state, cuoc_scorers, is_organiser, visible_events
from tournaments.services.events import check_in_by_token
from tournaments.views.common import error_status, page

#: Rows the projector shows (the crowd reads the top of the table from afar).
PROJECTOR_ROWS = 12
#: Rows the scoreboard shows; the whole table is one link away ("xem tất cả").
SCOREBOARD_ROWS = 50
#: Scorers named per cước on the board (the others are counted).
CUOC_NAMES = 8
#: A rendered board is kept this long (its key changes with every new leaderboard version).
BOARD_CACHE_SECONDS = 600


def event_list(request: HttpRequest) -> HttpResponse:
    events = visible_events(request.user).order_by("-date", "-id")[:100]
    return page(request, "tournaments/event_list.html", {"events": events})


def _board_html(request: HttpRequest, template: str, state: BoardState, limit: int | None) -> str:
    """The board partial, rendered once per leaderboard state and page (a per-process cache): a
    polling phone or projector then costs one small query and a cache look-up, not a render.

    The page's own query leaves the board's rows out; they are read only to render."""

    def key(tag: str) -> str:
        return f"tournaments:board:{state.event.pk}:{tag}:{template}:{limit}:{request.path}"

    html = cache.get(key(state.tag))
    if html is None:
        board = Leaderboard.objects.filter(pk=state.board.pk).first() or state.board
        state = BoardState(state.event, board, board.ledger_seq < state.event.ledger_seq)
        context = {
            "event": state.event,
            "state": state,
            "board": board,
            "rows": board.rows[:limit] if limit else board.rows,
            "total": len(board.rows),
            "limited": bool(limit) and len(board.rows) > (limit or 0),
            "teams": board.teams,
            "cuoc": cuoc_scorers(board.rows, limit=CUOC_NAMES),
        }
        html = render_to_string(f"{template}#board", context, request)
        cache.set(key(state.tag), html, BOARD_CACHE_SECONDS)
    return mark_safe(html)  # noqa: S308 - our own template's output


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


def _board(request: HttpRequest, slug: str, template: str, limit: int | None) -> HttpResponse:
    event = public_event(request, slug)
    state = board_state(event)
    if is_htmx(request) and request.GET.get("v") == state.tag:
        return HttpResponse(status=204)
    board_html = _board_html(request, template, state, limit)
    if is_htmx(request):
        response = HttpResponse(board_html)
    elif not request.user.is_authenticated:
        response = _anonymous_page(request, template, state, board_html)
    else:
        context = {"event": event, "board_html": board_html, "organiser": is_organiser(request.user, event)}
        response = page(request, template, context)
    response["Cache-Control"] = "no-cache"
    return response


def scoreboard(request: HttpRequest, slug: str) -> HttpResponse:
    """The top of the standings (a phone in the crowd); the whole table is :func:`scoreboard_all`."""
    return _board(request, slug, "tournaments/scoreboard.html", SCOREBOARD_ROWS)


def scoreboard_all(request: HttpRequest, slug: str) -> HttpResponse:
    return _board(request, slug, "tournaments/scoreboard.html", None)


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    return _board(request, slug, "tournaments/projector.html", PROJECTOR_ROWS)


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
