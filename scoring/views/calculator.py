"""Tính điểm: the calculator page. Every change of the form re-renders the calculator partial."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from scoring.engine import GAMES, EngineError, get_game, khoi_name, score
from scoring.htmx import render_htmx
from scoring.selectors.rules import (
    DEFAULT_PRESET,
    chip_conflicts,
    chip_rows,
    chips,
    rules_choices,
    scored_games,
)
from scoring.services.rules import resolve_rules

MAX_STREAK = 30


def streak_label(streak: int) -> str:
    if streak <= 1:
        return ""
    return "Thông" if streak == 2 else khoi_name(streak)


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _form_state(data: Any) -> dict[str, Any]:
    game_slug = data.get("game") or "to-tom-5"
    game = get_game(game_slug) if game_slug in GAMES else get_game("to-tom-5")
    choices = rules_choices(game)
    rules_slug = data.get("rules") or DEFAULT_PRESET[game.family]
    if rules_slug not in {c.slug for c in choices}:
        rules_slug = DEFAULT_PRESET[game.family]
    streak = _int(data.get("streak"), 1) + _int(data.get("step"), 0)
    streak = min(max(streak, 1), MAX_STREAK)
    return {
        "game": game,
        "games": scored_games(),
        "rules_slug": rules_slug,
        "rules_choices": choices,
        "selected": [c for c in data.getlist("cuoc") if c],
        "streak": streak,
        "streak_label": streak_label(streak),
    }


def calculator(request: HttpRequest) -> HttpResponse:
    state = _form_state(request.POST if request.method == "POST" else request.GET)
    error = None
    breakdown = None
    try:
        rules = resolve_rules(state["rules_slug"])
        state["chips"] = chips(state["game"], rules)
        state["rules"] = rules
        offered = {c.slug for c in state["chips"]}
        state["selected"] = [c for c in state["selected"] if c in offered]
        state["chip_rows"] = chip_rows(state["game"], rules, state["chips"], state["selected"])
        state["conflicts"] = chip_conflicts(state["game"], rules, state["chips"])
        breakdown = score(state["game"], rules, state["selected"], state["streak"])
    except EngineError as exc:
        error = exc.message
    context = {**state, "breakdown": breakdown, "error": error, "nav": "calculator"}
    return render_htmx(request, "scoring/calculator.html", context, partial="calc")
