"""Kiểm bài: tap the cards of a hand; see its arrangement, its cước, the verdict, or its waits."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import HttpRequest, HttpResponse

from scoring.engine import (
    CARD_BY_CODE,
    CATALOGUE,
    GAMES,
    Card,
    Derivability,
    EngineError,
    Game,
    cuoc_for_game,
    get_game,
)
from scoring.htmx import render_htmx
from scoring.selectors.cards import (
    MAX_COPIES,
    deck_of,
    phom_from_cards,
    phom_seats,
    picker_cards,
    western_seats,
)


def _games() -> list[Game]:
    """Every game a canh or an event offers, Phỏm too (its players' hands, ranked)."""
    return list(GAMES.values())


def _phom_page(request: HttpRequest, data: Any, game: Game) -> HttpResponse:
    """Phỏm: each player's cards when they laid down, in laying order; the page
    shows their phỏm, the points left, the ván's ranks (or the ù), and fills the calculator."""
    n = _count(data.get("players"), game.players_min, game.players_max)
    names = phom_seats(n)
    seats = western_seats(data, names)
    hands = [seat["hand"] for seat in seats]
    context: dict[str, Any] = {
        "nav": "kiem_bai",
        "games": _games(),
        "game": game,
        "player_counts": list(range(game.players_min, game.players_max + 1)),
        "n_players": n,
        "seats": seats,
        "phom": None,
        "error": None,
    }
    context["waiting"] = any(hands) and not all(hands)  # some hands still to pick
    if all(hands):
        try:
            context["phom"] = phom_from_cards([" ".join(h) for h in hands], names)
        except EngineError as exc:
            context["error"] = exc.message
    return render_htmx(request, "scoring/kiem_bai.html", context, partial="picker")


def _count(value: Any, low: int, high: int) -> int:
    try:
        return min(max(int(value), low), high)
    except (TypeError, ValueError):
        return high


def _hand_after(data: Any, deck: tuple[Card, ...]) -> list[str]:
    allowed = {c.code for c in deck}
    typed = (data.get("hand") or "").replace(",", " ").lower().split()  # codes typed, or the picker's
    hand = [c for c in typed if c in allowed]
    counts = Counter(hand)
    add, remove = data.get("add"), data.get("remove")
    if add in allowed and counts[add] < MAX_COPIES:
        hand.append(add)
    if remove in counts:
        hand.remove(remove)
    if data.get("clear"):
        hand = []
    order = {c.code: c.index for c in deck}
    return sorted(hand, key=order.__getitem__)


def _declarable(game: Game) -> list[tuple[str, str]]:
    return [
        (c.slug, c.name)
        for c in cuoc_for_game(game)
        if c.derivable == Derivability.CARDS and c.slug not in {"suong", "xuong"}
    ]


def _names(slugs: Any) -> list[str]:
    return [CATALOGUE[s].name if s in CATALOGUE else s for s in slugs]


def _analyse(game: Game, hand: list[str], declared: list[str]) -> dict[str, Any]:
    from scoring.engine import check_hand, find_waits

    size = game.hand_size or 0
    if len(hand) == size:
        result = check_hand(game.slug, hand, declared=declared or None)
        groups = [
            {"cards": [CARD_BY_CODE[c] for c in phu], "lung": _lung_of(phu)} for phu in result.arrangement
        ]
        return {"check": result, "groups": groups, "cuoc_names": _names(result.cuoc)}
    if len(hand) == size - 1:
        waits = find_waits(game.slug, hand)
        rows = [{"card": w.card, "cuoc": _names(w.cuoc), "allows": _names(w.allows)} for w in waits.waits]
        return {"waits": rows}
    return {}


def _lung_of(phu: tuple[str, ...]) -> str | None:
    """Name of the lưng a displayed phu carries (highlighted on the page), if any."""
    from scoring.engine import LUNG_TRIPLES

    for slug, triple, _ in LUNG_TRIPLES:
        if set(triple) <= set(phu):
            return slug.name_vi
    if len(phu) >= 3 and len(set(phu)) == 1:
        return "Trùng Tứ" if len(phu) == 4 else "Trùng Tam"
    return None


def kiem_bai(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    game_slug = data.get("game") or "to-tom-5"
    game = get_game(game_slug) if game_slug in GAMES else get_game("to-tom-5")
    if game.traits.ranked:
        return _phom_page(request, data, game)
    deck = deck_of(game)
    hand = _hand_after(data, deck)
    declarable = _declarable(game)
    declared = [d for d in data.getlist("declared") if d in {s for s, _ in declarable}]
    context: dict[str, Any] = {
        "nav": "kiem_bai",
        "games": _games(),
        "game": game,
        "deck": picker_cards(deck, hand),
        "hand": hand,
        "hand_str": " ".join(hand),
        "size": game.hand_size,
        "declarable": declarable,
        "declared": declared,
        "error": None,
    }
    try:
        context.update(_analyse(game, hand, declared))
    except EngineError as exc:
        context["error"] = exc.message
    return render_htmx(request, "scoring/kiem_bai.html", context, partial="picker")
