"""The Trung Quân's list of festival tables, and opening a new one (or one for an event's chiếu)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_noop

from scoring.engine import N_, EngineError, get_game
from scoring.models import Mode
from scoring.respond import status_of
from scoring.selectors.rules import rules_choices
from tournaments.console import services
from tournaments.console.permissions import event_tables_run_by, tables_run_by
from tournaments.console.services.tables import GAME
from tournaments.console.views.common import intval, tq_login_required, user_error
from tournaments.models import Table as EventTable

__all__ = ["table_list"]

#: The placeholders of the five seats' names (examples, in the page's language).
DEFAULT_NAMES = (
    gettext_noop("Giáp Nhất"),
    gettext_noop("Giáp Nhị"),
    gettext_noop("Giáp Tam"),
    gettext_noop("Giáp Tứ"),
    gettext_noop("Giáp Ngũ"),
)


def _event_tables(user: Any) -> QuerySet[EventTable]:
    """Chiếu of Tổ Tôm Điếm events the user organises or is Trung Quân of, with no console table yet."""
    return event_tables_run_by(user).filter(sitting__game=GAME, festival_table__isnull=True)


def _open(request: HttpRequest) -> EngineError | None:
    data = request.POST
    linked = intval(data.get("event_table"))
    try:
        if linked:
            event_table = _event_tables(request.user).filter(pk=linked).first()
            if event_table is None:
                return EngineError(
                    N_("Không có chiếu này, hoặc bạn không phải ban tổ chức hay Trung Quân của giải.")
                )
            name = data.get("name") or f"{event_table.event.name} · {event_table}"
            table = services.table_open(
                name=name, event_table=event_table, trung_quan=request.user, created_by=request.user
            )
        else:
            players = [data.get(f"player{i}", "").strip() for i in range(1, 6)]
            table = services.table_open(
                name=data.get("name", ""),
                players=players,
                rules=data.get("rules"),
                mode=data.get("mode", Mode.QUANG),
                trung_quan=request.user,
                created_by=request.user,
                idempotency_key=data.get("key") or None,
            )
    except EngineError as exc:
        return exc
    request.session["console_opened"] = table.pk
    return None


@tq_login_required
def table_list(request: HttpRequest) -> HttpResponse:
    failed = None
    if request.method == "POST":
        failed = _open(request)
        if failed is None:
            return redirect("console:console", pk=request.session.pop("console_opened"))
    game = get_game(GAME)
    context = {
        "tables": tables_run_by(request.user)[:50],
        "rules": rules_choices(game),
        "modes": Mode.choices,
        "event_tables": _event_tables(request.user)[:50],
        "default_names": [gettext(name) for name in DEFAULT_NAMES],
        "key": uuid.uuid4().hex,
        "error": user_error(failed) if failed else None,
        "form": request.POST if failed else None,
        "nav": "console",
    }
    return render(request, "console/table_list.html", context, status=status_of(failed) if failed else 200)
