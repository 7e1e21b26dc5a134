"""Cards as people read them: names, never codes.

The engine's canonical notation is a short code (``7v``, ``3m``, ``cc``): the API, fixtures and the
stored ván keep it. A page shows the card's name in the reader's language: Vietnamese by default
("Thất Văn", "Ông Cụ"), English under ``/en/`` ("7 of Văn"; the honours keep their names, as the
cước do). The card picker (``templates/scoring/_card_picker.html``, ``static/scoring/card_picker.js``)
reads its grid from :func:`picker_cards`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext

from scoring.engine import (
    CARD_BY_CODE,
    CARDS,
    CHAN_CARDS,
    WESTERN_BY_CODE,
    WESTERN_CARDS,
    Card,
    DeckKind,
    EngineError,
    Game,
    parse_western_hand,
)

__all__ = [
    "western_seats",
    "MAX_COPIES",
    "WESTERN_MAX_COPIES",
    "card_name",
    "card_names",
    "deck_of",
    "phom_from_cards",
    "phom_seats",
    "picker_cards",
    "western_codes",
    "western_picker_cards",
]

#: Copies of each card kind in a deck.
MAX_COPIES = 4


def card_name(code: str) -> str:
    """The name of the card with this code in the active language; text that is no code is shown
    as it was typed (a hand typed with names, or a typo the checker will point out)."""
    key = str(code).strip().lower()
    card = CARD_BY_CODE.get(key)
    if card is None:
        western = WESTERN_BY_CODE.get(key)  # Phỏm's 52 cards: "K♥" in every language
        return western.label if western is not None else str(code)
    # The engine's Vietnamese name is the msgid (locale/en/LC_MESSAGES/django.po: "Thất Văn" → "7 of Văn").
    return gettext(card.name)


def card_names(codes: str | Iterable[str]) -> list[str]:
    """The names of a hand given as codes (a string separated by spaces or commas, or a list)."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [card_name(c) for c in codes]


def deck_of(game: Game) -> tuple[Card, ...]:
    """The card kinds of the game's deck in deck order (the hand checker's decks; Phỏm has none)."""
    if game.deck == DeckKind.CHAN:
        return CHAN_CARDS
    if game.deck == DeckKind.TO_TOM:
        return CARDS
    return ()


def picker_cards(deck: Iterable[Card], hand: Iterable[str]) -> list[dict[str, Any]]:
    """One entry a card kind for the picker's grid: code, name, red, and copies in the hand."""
    counts = Counter(str(c).strip().lower() for c in hand)
    return [
        {
            "code": c.code,
            "name": card_name(c.code),
            "red": c.is_red,
            "count": counts[c.code],
            "full": counts[c.code] >= MAX_COPIES,
        }
        for c in deck
    ]


# -- Phỏm: the 52-card deck ----------------------------------------------------------

#: Each card of the western deck is in it once.
WESTERN_MAX_COPIES = 1


def western_picker_cards(hand: Iterable[str], taken: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The picker's grid for the 52-card deck: each card by its short name ("K♥"), in ``hand`` or
    not; a card already in another player's hand (``taken``) is shown spent."""
    mine = {str(c).strip().lower() for c in hand}
    others = {str(c).strip().lower() for c in taken} - mine
    return [
        {
            "code": c.code,
            "name": c.label,
            "red": c.is_red,
            "count": 1 if c.code in mine else 0,
            "full": c.code in mine or c.code in others,
        }
        for c in WESTERN_CARDS
    ]


def western_codes(text: str) -> list[str]:
    """The codes of a hand typed or picked ("K♥ 10t" → ["kc", "10t"]); what cannot be read stays as
    typed (the checker names it)."""
    out = []
    for token in (text or "").replace(",", " ").split():
        try:
            out.append(parse_western_hand(token)[0].code)
        except EngineError:
            out.append(token)
    return out


def western_seats(data: Any, names: list[str]) -> list[dict[str, Any]]:
    """Each seat's 52-card hand typed or picked (``hand_1`` …, in laying order) with its picker, in
    which a card already in another seat's hand is greyed out: Kiểm bài's Phỏm and the calculator's
    "Xếp hạng theo quân"."""
    hands = [western_codes(data.get(f"hand_{i}", "")) for i in range(1, len(names) + 1)]
    seats = []
    for i, (name, hand) in enumerate(zip(names, hands, strict=True), start=1):
        taken = [c for j, other in enumerate(hands, start=1) if j != i for c in other]
        seats.append(
            {
                "seat": i,
                "name": name,
                "input": f"hand_{i}",
                "hand": hand,
                "hand_str": " ".join(hand),
                "cards": western_picker_cards(hand, taken),
            }
        )
    return seats


def phom_seats(n: int) -> list[str]:
    """The names of a Phỏm table's seats on the calculator and Kiểm bài ("Người 1" …)."""
    return [gettext("Người %(n)s") % {"n": i} for i in range(1, n + 1)]


def phom_from_cards(hands: list[str], names: list[str], rules: Any = None) -> dict[str, Any]:
    """Each seat's phỏm, points and the ván's ranks from the cards (:func:`scoring.engine.check_phom`),
    with ``places`` (seat number → place, 1-based) or ``u_winner`` (seat number) for the forms that
    fill a Phỏm ván's placings. Raises EngineError in the user's words."""
    from scoring.engine import check_phom, get_game

    players = [{"name": name, "hand": hand} for name, hand in zip(names, hands, strict=True)]
    result = check_phom(get_game("phom"), players, u_khan=True if rules is None else rules.phom_u_khan)
    seat = {name: i for i, name in enumerate(names, start=1)}
    rows = [
        {
            "seat": seat[h.name],
            "name": h.name,
            "phom": [[{"code": c.code, "label": c.label, "red": c.is_red} for c in m] for m in h.phom],
            "left": [{"code": c.code, "label": c.label, "red": c.is_red} for c in h.left],
            "points": h.points,
            "mom": h.mom,
            "u": h.u or h.u_khan,
            "u_khan": h.u_khan,
            "count": len(h.cards),
        }
        for h in result.hands
    ]
    places = {seat[name]: place for place, name in enumerate(result.ranks, start=1)}
    return {
        "rows": rows,
        "ranks": list(result.ranks),
        "winner": result.winner,
        "u_winner": seat[result.winner] if result.winner else None,
        "places": places,
        "message": result.message,
    }
