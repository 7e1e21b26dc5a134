"""The Trung Quân's helpers: choose the dealer (three bắt cái methods) and resolve ù đè.

Both call the pure functions of :mod:`tournaments.console.dealer` and show their answer with the
seat's name; nothing is written (giving cái is a separate tap).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.engine import EngineError
from tournaments.console.dealer import choose_dealer, u_de
from tournaments.console.selectors import seat_names
from tournaments.console.views.common import intval, run_table, tq_login_required, user_error

__all__ = ["bat_cai", "u_de_view"]

RESULT = "console/_helper_result.html"


@tq_login_required
@require_POST
def bat_cai(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    names = seat_names(table)
    data = request.POST
    cards = [c for c in (data.get("card1", ""), data.get("card2", "")) if c.strip()]
    n_players = intval(data.get("players")) or 5
    try:
        choice = choose_dealer(
            data.get("method", ""), cards, n_players=n_players, chooser=intval(data.get("chooser")) or 1
        )
    except EngineError as exc:
        return render(request, RESULT, {"error": user_error(exc)})
    name = names.get(choice.seat) if n_players == len(names) - 1 else None
    part = gettext(", phần thứ %(n)s") % {"n": choice.part} if choice.part else ""
    headline = gettext("Cái về chỗ %(n)s") % {"n": choice.seat} + (f" — {name}" if name else "") + part
    give = choice.seat if name else None
    return render(
        request,
        RESULT,
        {
            "headline": headline,
            "explanation": choice.explanation,
            "give": give,
            "give_name": name,
            "table": table,
        },
    )


@tq_login_required
@require_POST
def u_de_view(request: HttpRequest, pk: int) -> HttpResponse:
    table = run_table(request, pk)
    names = seat_names(table)
    data = request.POST
    claimants = [n for n in (intval(v) for v in data.getlist("claimants")) if n is not None]
    try:
        result = u_de(
            door=intval(data.get("door")) or 0, claimants=claimants, from_noc=data.get("from_noc") == "1"
        )
    except EngineError as exc:
        return render(request, RESULT, {"error": user_error(exc)})
    headline = gettext("Chỗ %(n)s — %(name)s được ù") % {"n": result.winner, "name": names[result.winner]}
    if result.overridden:
        headline += gettext("; bị đè ù: %(names)s") % {
            "names": ", ".join(names[s] for s in result.overridden)
        }
    return render(request, RESULT, {"headline": headline, "explanation": result.explanation, "table": table})
