"""Cards as people read them: names, never codes (issue 19, item 8).

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

from scoring.engine import CARD_BY_CODE, CARDS, CHAN_CARDS, Card, DeckKind, Game

__all__ = ["MAX_COPIES", "card_name", "card_names", "deck_of", "picker_cards"]

#: Copies of each card kind in a deck.
MAX_COPIES = 4


def card_name(code: str) -> str:
    """The name of the card with this code in the active language; text that is no code is shown
    as it was typed (a hand typed with names, or a typo the checker will point out)."""
    card = CARD_BY_CODE.get(str(code).strip().lower())
    # The engine's Vietnamese name is the msgid (locale/en/LC_MESSAGES/django.po: "Thất Văn" → "7 of Văn").
    return gettext(card.name) if card is not None else str(code)


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
