"""An event's public board (the scoreboard, its whole table, the projector): rendered once per
state, language and page, and pushed to the people watching it.

Rendered from the stored leaderboard, never computed per request, and kept in the per-process
cache under a key that changes with every new state (:class:`tournaments.selectors.pages.BoardState`'s
tag), so polling phones cost a small query and a cache look-up.

**Pushed** (``settings.BOARD_PUSH``: on wherever an event can travel between processes, through
Pushpin (``GRIP_URL``) or Redis): each new version of the board (the leaderboard task, on a Celery
worker) and the end of the event are rendered once per page and language and sent on that page's
channel (``bxh-<event>-<page>-<language>``, django-eventstream): Pushpin (or each app process)
hands the same bytes to every viewer, who swaps them in (``static/tournaments/board-stream.js``).
A viewer then costs the app its page and its stream's opening, not a request every 2 s. The
channel keeps nothing (a board is whole: the newest one is all a viewer needs): a stream that
reopens asks the page once for the board it missed, and the page also asks every 10 minutes, in
case one push was lost (a publish that failed while the stream stayed open). Without a way
between processes (``make run``: the filesystem broker, no Redis) the board asks every 2 s, as a
laptop's few phones can afford.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django_eventstream import send_event

from tournaments.console.broadcast import encode
from tournaments.models import Leaderboard
from tournaments.selectors.pages import BoardState, board_state, cuoc_scorers, events_with_board_state

__all__ = [
    "CHANNEL",
    "BoardPage",
    "channel_for",
    "connect",
    "languages",
    "page_named",
    "pages",
    "poll_every",
    "push_board",
    "render_board",
]

log = logging.getLogger(__name__)

#: Scorers named per cước on the board (the others are counted).
CUOC_NAMES = 8
#: A rendered board is kept this long (its key changes with every new leaderboard version).
BOARD_CACHE_SECONDS = 600

CHANNEL = re.compile(r"^bxh-(\d{1,18})-([a-z]{1,8})-([a-z]{2}(?:-[a-z]{2,4})?)$")


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One of an event's board pages: its template (with a ``board`` partial), its address and how
    many rows it shows (None: all)."""

    slug: str  #: its name in the stream's channel and address
    template: str
    url_name: str
    limit: int | None


#: Rows the scoreboard shows (a phone in the crowd); the whole table is one link away ("xem tất cả").
SCOREBOARD_ROWS = 50
#: Rows the projector shows (the crowd reads the top of the table from afar).
PROJECTOR_ROWS = 12


def pages() -> list[BoardPage]:
    """The board pages (built when asked, so a test may change a limit)."""
    return [
        BoardPage("bang", "tournaments/scoreboard.html", "tournaments:scoreboard", SCOREBOARD_ROWS),
        BoardPage("tat-ca", "tournaments/scoreboard.html", "tournaments:scoreboard_all", None),
        BoardPage("chieu", "tournaments/projector.html", "tournaments:projector", PROJECTOR_ROWS),
    ]


def page_named(slug: str) -> BoardPage | None:
    return next((page for page in pages() if page.slug == slug), None)


def languages() -> list[str]:
    """The languages the site speaks, each board rendered and pushed in every one."""
    return [code for code, _ in settings.LANGUAGES]


def channel_for(event_id: int, page: str, language: str) -> str:
    return f"bxh-{event_id}-{page}-{language}"


def poll_every() -> str:
    """How often a board page asks for a newer board: every 10 minutes when the board is pushed (in
    case a push was lost), every 2 s when it is not."""
    return "every 600s" if settings.BOARD_PUSH else "every 2s"


def render_board(state: BoardState, page: BoardPage, language: str) -> SafeString:
    """The board partial of ``page`` for ``state`` in ``language``, rendered once per state (a
    per-process cache): the same bytes for every viewer, whether asked for or pushed."""
    key = f"tournaments:board:{state.event.pk}:{state.tag}:{page.slug}:{page.limit}:{language}:{settings.BOARD_PUSH}"
    html = cache.get(key)
    if html is None:
        board = Leaderboard.objects.filter(pk=state.board.pk).first() or state.board
        state = BoardState(state.event, board, board.ledger_seq < state.event.ledger_seq)
        with translation.override(language):
            url = reverse(page.url_name, args=[state.event.slug])
            context = {
                "event": state.event,
                "state": state,
                "board": board,
                "rows": board.rows[: page.limit] if page.limit else board.rows,
                "total": len(board.rows),
                "limited": bool(page.limit) and len(board.rows) > (page.limit or 0),
                "teams": board.teams,
                "cuoc": cuoc_scorers(board.rows, limit=CUOC_NAMES),
                "board_url": url,
                "poll": poll_every(),
                "stream_url": (
                    reverse("board-events", args=[state.event.slug, page.slug, language])
                    if settings.BOARD_PUSH
                    else ""
                ),
            }
            html = render_to_string(f"{page.template}#board", context)
        cache.set(key, html, BOARD_CACHE_SECONDS)
    return mark_safe(html)  # noqa: S308 - our own template's output


def push_board(event_id: int) -> int:
    """Send the event's board, as it now stands, on every page's channel in every language; the
    number of pushes (0 when boards are not pushed, or no such event)."""
    if not settings.BOARD_PUSH:
        return 0
    event = events_with_board_state().filter(pk=event_id).first()
    if event is None:
        return 0
    state = board_state(event)
    sent = 0
    for page in pages():
        for language in languages():
            html = render_board(state, page, language)
            body = encode({"tag": state.tag, "version": state.board.version, "html": str(html)})
            send_event(channel_for(event_id, page.slug, language), "board", body, json_encode=False)
            sent += 1
    return sent


def _on_board_changed(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    """A new version of the board, or the event's end: push it (a failure to push is logged, never
    raised: the board is stored, and the pages' 10-minute poll brings it)."""
    try:
        push_board(event_id)
    except Exception:
        log.exception("Could not push event %s's board", event_id)


def connect() -> None:
    from tournaments.signals import event_finished, standings_changed

    standings_changed.connect(_on_board_changed, dispatch_uid="tournaments.board.standings")
    event_finished.connect(_on_board_changed, dispatch_uid="tournaments.board.finished")
