"""The hội lifecycle: gom at the opening, closing when the pool is emptied (docs/rules.md §8, §10).

* Gom: the first hội opens (everyone pays the gom into the pool) when the first ván starts; a
  payout that empties the pool closes it; the next opens only when the next ván starts.
* Quăng: one hội spans the whole sitting (opened at the first ván, never closed here).
* When a hội closes, every unpaid báo chèo đò debt is paid as đền làng.
"""

from __future__ import annotations

from dataclasses import replace

from scoring.engine.words import PHRASES, REASONS

from .context import SittingTerms
from .ga import hoi_contributions
from .ledger import Book
from .pay import pay_den_lang
from .types import POOL, HoiSpan, SittingState

__all__ = ["close_hoi", "needs_opening", "open_hoi"]


def needs_opening(table: SittingTerms, state: SittingState) -> bool:
    """Whether the ván about to start opens a hội."""
    if not state.hoi:
        return True
    return table.gom and not state.hoi_open


def open_hoi(book: Book, table: SittingTerms, state: SittingState, number: int) -> tuple[HoiSpan, ...]:
    """Open the next hội before ván ``number``: collect the gom and the gà đầu hội."""
    index = len(state.hoi) + 1
    if table.gom:
        amount = table.rules.gom_amount(len(state.players))
        for player in state.players:
            why = REASONS["hoi_gom"].format(payer=player, amount=amount, index=index)
            book.pay(player, POOL, amount, why)
    hoi_contributions(book, table, state.players)
    return (*state.hoi, HoiSpan(index, number))


def close_hoi(
    book: Book,
    table: SittingTerms,
    state: SittingState,
    hoi: tuple[HoiSpan, ...],
    debts: tuple[int, ...],
    number: int,
) -> tuple[tuple[HoiSpan, ...], tuple[int, ...]]:
    """Close the current hội after ván ``number``; chèo đò debtors pay đền làng.

    Returns the hội list with the last one closed, and the debts (all cleared).
    """
    amount = table.den_lang_value(state)
    for player, count in zip(state.players, debts, strict=True):
        for _ in range(count):
            pay_den_lang(book, table, player, state.players, amount, PHRASES["cheo_do_unpaid"])
    closed = (*hoi[:-1], replace(hoi[-1], closed_after_van=number))
    return closed, tuple(0 for _ in debts)
