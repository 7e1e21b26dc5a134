"""Pieces shared by the console's pages: finding a table the user may run, the live context."""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django_eventstream import get_current_event_id

from scoring.engine import EngineError, get_game
from scoring.respond import status_of
from scoring.selectors.rules import chips
from tournaments.console.broadcast import channel_for
from tournaments.console.catalogue import COMMON
from tournaments.console.models import FestivalTable, Signal, SignalEffect, SignalKind
from tournaments.console.permissions import RUN, reach
from tournaments.console.selectors import signals_for, table_state
from tournaments.console.services import ConsoleError

__all__ = [
    "console_context",
    "final_status",
    "signal_groups",
    "tq_login_required",
    "intval",
    "render_live",
    "run_table",
    "stream_id",
    "van_form_context",
]

CONSOLE = "console/console.html"

#: The console's own sign-in page: the admin's refuses accounts that are not staff, and a
#: village's Trung Quân usually is not.
tq_login_required = login_required(login_url="console:login")


def run_table(request: HttpRequest, pk: int) -> FestivalTable:
    """The table, if the signed-in user may run it: 403 for one who may see it but not run it; 404
    for no such table and for a private event's table to one who takes no part in the event (after
    the same checks: :func:`~tournaments.console.permissions.reach`)."""
    table = (
        FestivalTable.objects.select_related("sitting", "event_table__event", "trung_quan")
        .filter(pk=pk)
        .first()
    )
    may = reach(request.user, table)
    if may is None or table is None:
        raise Http404(gettext("Không có chiếu này."))
    if may != RUN:
        raise PermissionDenied(
            gettext("Chỉ Trung Quân của chiếu này và ban tổ chức mới mở được bàn Trung Quân.")
        )
    return table


def stream_id(table: FestivalTable) -> str:
    """The id of the newest event of the table's channel (a display resumes after it)."""
    return str(get_current_event_id([channel_for(table.pk)]))


def intval(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


#: A flag's colour as the page may write it into its style sheet: "#d0202a" or a colour's name.
COLOUR = re.compile(r"#[0-9A-Fa-f]{3,8}|[A-Za-z]{3,20}")


#: The groups of a seat's less used signals (behind "Thêm hiệu"), in the order shown.
SIGNAL_GROUPS = (
    ("drum", gettext_lazy("Trống")),
    ("u", gettext_lazy("Ù")),
    ("flag", gettext_lazy("Cờ")),
    ("bat_thuc", gettext_lazy("Bất thực")),
)


def _group_of(signal: Signal) -> str:
    if signal.effect in (SignalEffect.BAT_THUC, SignalEffect.TRA_CHEN):
        return "bat_thuc"
    if signal.effect == SignalEffect.U:
        return "u"
    return "flag" if signal.kind == SignalKind.FLAG else "drum"


def signal_groups(player_signals: list[Signal]) -> tuple[list[Signal], list[tuple[str, str, list[Signal]]]]:
    """A seat's pad: the first :data:`COMMON` signals (the catalogue's order is the most used first)
    on the first screen, and the others grouped by what they do: (slug, name, signals)."""
    common, rest = player_signals[:COMMON], player_signals[COMMON:]
    groups = [(slug, str(name), [s for s in rest if _group_of(s) == slug]) for slug, name in SIGNAL_GROUPS]
    return common, [g for g in groups if g[2]]


def console_context(table: FestivalTable) -> dict[str, Any]:
    """What the whole console page shows (the live part, the pads, the helpers). The flags' colours
    go into one style sheet of the page, a class per signal (``tq-c-<slug>``): the
    Content-Security-Policy allows no style attribute."""
    signals = list(signals_for(table))
    state = table_state(table)
    player_signals = [s for s in signals if s.kind != SignalKind.BIG_DRUM]
    common, groups = signal_groups(player_signals)
    return {
        "table": table,
        "state": state,
        "seats": state["seats"],
        "player_signals": player_signals,
        "common_signals": common,
        "signal_groups": groups,
        "more_count": len(player_signals) - len(common),
        "big_drum": [s for s in signals if s.kind == SignalKind.BIG_DRUM],
        "flag_colours": [(s.slug, s.color) for s in signals if s.color and COLOUR.fullmatch(s.color)],
        "nav": "console",
    }


def van_form_context(
    table: FestivalTable,
    *,
    winner: int | None = None,
    hoa: bool = False,
    error: str | None = None,
    picked: list[str] | None = None,
) -> dict[str, Any]:
    """The ván form, pre-filled with the winner (the seat that signalled ù)."""
    sitting = table.sitting
    state = table_state(table)
    if winner is None and state["u_seats"]:
        winner = state["u_seats"][0]
    return {
        "table": table,
        "state": state,
        "seats": state["seats"],
        "winner": winner,
        "hoa": hoa,
        "chips": chips(get_game(sitting.game), sitting.rules.rules()),
        "picked": picked or [],
        "seq": table.van_seq,
        "canh": table.sitting_id,
        "key": uuid.uuid4().hex,
        "error": error,
    }


def render_live(
    request: HttpRequest,
    table: FestivalTable,
    *,
    error: str | None = None,
    extra: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The live part of the console (state, seats, this ván's signals), for htmx swaps."""
    table.refresh_from_db()
    context = {**console_context(table), "error": error, **(extra or {})}
    response = render(request, f"{CONSOLE}#live", context, status=status)
    return response


def user_error(exc: ConsoleError | Exception) -> str:
    return getattr(exc, "message", str(exc))


def final_status(exc: EngineError) -> int:
    """The status of a console refusal shown in the live part: the error's own
    (:func:`scoring.respond.status_of`: 409 when the table's event is finished, 400 for a mistake)."""
    return status_of(exc)
