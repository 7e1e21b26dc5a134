"""Tính điểm: the calculator page. Every change of the form re-renders the calculator partial.

Games valued by cước score the tapped cước (:func:`scoring.engine.score`). Phỏm has no cước: it is
settled by rank, or by an ù (with an optional đền), so its calculator asks the placings and shows
who pays whom, settled by the engine exactly as a canh would (:func:`scoring.engine.settle_van`).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language, gettext

from scoring.engine import (
    GAMES,
    N_,
    EngineError,
    Game,
    RuleSet,
    get_game,
    initial_state,
    khoi_name,
    score,
    settle_van,
)
from scoring.htmx import render_htmx
from scoring.selectors.cards import phom_from_cards, western_seats
from scoring.selectors.rules import (
    DEFAULT_PRESET,
    chip_conflicts,
    chip_rows,
    chips,
    rules_choices,
)
from scoring.selectors.sitting import signed
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
        "games": list(GAMES.values()),
        "rules_slug": rules_slug,
        "rules_choices": choices,
        "selected": [c for c in data.getlist("cuoc") if c],
        "streak": streak,
        "streak_label": streak_label(streak),
    }


#: Phỏm outcomes the calculator asks for: placings, or an ù (its đền optional).
PHOM_RANKS, PHOM_U = "ranks", "u"


def _phom_form(data: Any, game: Game) -> dict[str, Any]:
    """The Phỏm taps as typed: how many players, ranks or ù, each player's place, who ù, who đền."""
    n = min(max(_int(data.get("players"), game.players_max), game.players_min), game.players_max)
    players = [gettext("Người %(n)s") % {"n": i} for i in range(1, n + 1)]
    places = [_int(data.get(f"place_{i}"), 0) for i in range(1, n + 1)]
    if not all(1 <= p <= n for p in places):
        places = list(range(1, n + 1))  # a new count of players starts from seat order
    outcome = PHOM_U if data.get("outcome") == PHOM_U else PHOM_RANKS
    winner = _int(data.get("u_winner"), 1)
    den = _int(data.get("u_den"), 0)
    return {
        "n_players": n,
        "player_counts": list(range(game.players_min, game.players_max + 1)),
        "players": players,
        "place_rows": [
            {"seat": i, "name": name, "place": places[i - 1]} for i, name in enumerate(players, 1)
        ],
        "places": list(range(1, n + 1)),
        "outcome": outcome,
        "u_winner": winner if 1 <= winner <= n else 1,
        "u_den": den if 1 <= den <= n else 0,
    }


def _phom_result(game: Game, rules: RuleSet, form: dict[str, Any]) -> dict[str, Any]:
    """Settle the one Phỏm ván the form describes (the engine's settle_van); refusals in the page's words."""
    players = form["players"]
    if form["outcome"] == PHOM_U:
        record: dict[str, Any] = {"winner": players[form["u_winner"] - 1]}
        if form["u_den"]:
            if form["u_den"] == form["u_winner"]:
                raise EngineError(N_("Người đền phải là người khác người ù."))
            record["den"] = players[form["u_den"] - 1]
    else:
        by_place = sorted(form["place_rows"], key=lambda row: row["place"])
        if [row["place"] for row in by_place] != form["places"]:
            raise EngineError(
                N_("Mỗi thứ hạng chỉ một người: hãy chọn cho mỗi người một thứ hạng khác nhau.")
            )
        record = {"ranks": [row["name"] for row in by_place]}
    settled = settle_van(initial_state(players, game, rules), record, game=game, rules=rules)
    balances = settled.state.balance_map()
    return {
        "transfers": [
            {"from": t.from_, "to": t.to, "amount": t.amount, "why": t.why} for t in settled.transfers
        ],
        "balances": [{"name": p, "value": balances[p], "shown": signed(balances[p])} for p in players],
        "stakes": ", ".join(str(s) for s in rules.phom_rank_stakes[: len(players) - 1]),
        "u_stake": rules.phom_u_stake,
    }


def calculator(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    state = _form_state(data)
    if state["game"].traits.ranked:
        return _phom_calculator(request, state, data)
    error = None
    breakdown = None
    # the key of the chips' fragment kept in the cache (the template's {% cache %}): what they
    # are rendered from, the rules by their fingerprint so a new version is never served stale
    language = get_language() or ""
    state["chips_key"] = language
    try:
        rules = resolve_rules(state["rules_slug"])
        state["chips"] = chips(state["game"], rules)
        state["rules"] = rules
        offered = {c.slug for c in state["chips"]}
        state["selected"] = [c for c in state["selected"] if c in offered]
        # worked out only when the fragment is not in the cache (the template calls them)
        state["chip_rows"] = lambda: chip_rows(state["game"], rules, state["chips"], state["selected"])
        state["conflicts"] = lambda: chip_conflicts(state["game"], rules, state["chips"])
        state["chips_key"] = "|".join(
            [language, state["game"].slug, rules.fingerprint, *sorted(state["selected"])]
        )
        breakdown = score(state["game"], rules, state["selected"], state["streak"])
    except EngineError as exc:
        error = exc.message
    context = {**state, "breakdown": breakdown, "error": error, "nav": "calculator"}
    return render_htmx(request, "scoring/calculator.html", context, partial="calc")


def _fill_from_cards(form: dict[str, Any], seats: list[dict[str, Any]], rules: RuleSet) -> dict[str, Any]:
    """Rank the ván from the cards and fill the placings (or the ù) the form asks."""
    found = phom_from_cards([s["hand_str"] for s in seats], form["players"], rules)
    if found["u_winner"]:
        form.update(outcome=PHOM_U, u_winner=found["u_winner"], u_den=0)
    else:
        form["outcome"] = PHOM_RANKS
        for row in form["place_rows"]:
            row["place"] = found["places"][row["seat"]]
    return found


def _phom_calculator(request: HttpRequest, state: dict[str, Any], data: Any) -> HttpResponse:
    form = _phom_form(data, state["game"])
    seats = western_seats(data, form["players"])
    context: dict[str, Any] = {**state, **form, "phom": None, "error": None}
    context.update(card_seats=seats, from_cards=None, from_cards_error=None)
    context["from_cards_open"] = any(s["hand"] for s in seats)
    context["nav"] = "calculator"
    try:
        rules = resolve_rules(state["rules_slug"])
        context["rules"] = rules
        if data.get("from_cards"):
            try:
                context["from_cards"] = _fill_from_cards(form, seats, rules)
                context.update(form)
            except EngineError as exc:
                context["from_cards_error"] = exc.message
        context["phom"] = _phom_result(state["game"], rules, form)
    except EngineError as exc:
        context["error"] = exc.message
    return render_htmx(request, "scoring/calculator.html", context, partial="calc")
