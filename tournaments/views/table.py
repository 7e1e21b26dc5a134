"""The table (chiếu) page: seats and points, the ván so far, the round's clock or ván count, and
the ván entry (who won, with which cước) for the table's scorekeeper."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, reverse

from scoring.engine.errors import EngineError
from scoring.engine.games import get_game
from scoring.selectors.rules import chips
from tournaments.models import Table
from tournaments.selectors.pages import table_view
from tournaments.services.van import event_van_record
from tournaments.views.common import organised_event, page


def _scorekeeper_url(table: Table) -> str | None:
    """The scoring app's own page for the sitting, once it has one."""
    for name in ("scoring:sitting", "scoring:sitting_detail"):
        try:
            return reverse(name, args=[table.sitting_id])
        except NoReverseMatch:
            continue
    return None


def _record(request: HttpRequest, table: Table) -> str | None:
    """Record the posted ván; the Vietnamese error message if the entry is wrong."""
    data = request.POST
    winner = data.get("winner", "")
    record: dict[str, Any] = {"result": "hoa"} if winner == "__hoa__" else {
        "winner": winner, "cuoc": [c for c in data.getlist("cuoc") if c]}
    if not winner:
        return "Hãy chọn người ù (hoặc Hòa)."
    try:
        seq = int(data.get("seq", ""))
    except ValueError:
        return "Thiếu số ván; hãy tải lại trang."
    try:
        event_van_record(table=table, seq=seq, record=record, idempotency_key=data.get("key") or None,
                         entered_by=request.user)
    except EngineError as exc:
        return exc.message
    return None


@login_required
def table_page(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    event = organised_event(request, slug)
    table = get_object_or_404(Table.objects.select_related("round", "sitting__rules", "event"), event=event,
                              pk=table_id)
    error = _record(request, table) if request.method == "POST" else None
    game = get_game(event.game)
    context = {
        "event": event, "table": table, "view": table_view(table), "error": error,
        "chips": chips(game, event.rules.rules()) if game.family != "phom" else [],
        "key": uuid.uuid4().hex, "scorekeeper_url": _scorekeeper_url(table),
    }
    return page(request, "tournaments/table.html", context, partial="table", status=422 if error else 200)
