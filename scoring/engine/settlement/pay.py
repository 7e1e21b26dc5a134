"""Moving the points of a win or a fine, in đánh quăng and đánh gom (docs/rules.md §8, §10)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from scoring.engine.words import REASONS

from .context import SittingTerms
from .ga import contribute
from .ledger import Book
from .types import POOL

__all__ = ["Due", "pay_den_lang", "pay_win", "payers_of"]


@dataclass(frozen=True, slots=True)
class Due:
    """One thing a winner is owed per payer: the win's points, or its gà ngoài."""

    amount: int
    #: Vietnamese label ("ù Tôm", "gà ngoài Thập Điều").
    label: str


def payers_of(table: SittingTerms, players: Sequence[str], winner: str, folded: Sequence[str]) -> list[str]:
    """The players who pay a win in quăng: everyone else seated, less who folded (RULES §7 Chịu)."""
    return [p for p in players if p != winner and (table.rules.chiu_pays or p not in folded)]


def pay_win(
    book: Book,
    table: SittingTerms,
    winner: str,
    dues: Sequence[Due],
    payers: Sequence[str],
    substitute: str | None,
) -> None:
    """Pay ``dues`` to ``winner``.

    Quăng: each payer pays each due; a ``substitute`` (báo ngồi đấy, đánh ù đền) pays every
    payer's share instead. Gom: the pool pays (capped at what it holds); a substitute pays one
    share to the winner instead of the pool.
    """
    for due in dues:
        if due.amount <= 0:
            continue
        if substitute is not None:
            _pay_substitute(book, table, winner, due, len(payers), substitute)
        elif table.gom:
            book.take_from_pool(winner, due.amount, partial(_pool_why, winner, due))
        else:
            for payer in payers:
                why = REASONS["pay"].format(payer=payer, payee=winner, amount=due.amount, label=due.label)
                book.pay(payer, winner, due.amount, why)


def _pool_why(winner: str, due: Due, taken: int) -> str:
    if taken == due.amount:
        return REASONS["pool_pays"].format(payee=winner, amount=taken, label=due.label)
    return REASONS["pool_pays_short"].format(payee=winner, amount=taken, worth=due.amount, label=due.label)


def _pay_substitute(
    book: Book, table: SittingTerms, winner: str, due: Due, shares: int, substitute: str
) -> None:
    if table.gom:
        book.pay(
            substitute,
            winner,
            due.amount,
            REASONS["substitute_gom"].format(
                payer=substitute, payee=winner, amount=due.amount, label=due.label
            ),
        )
        return
    total = due.amount * shares
    book.pay(
        substitute,
        winner,
        total,
        REASONS["substitute"].format(
            payer=substitute, payee=winner, amount=total, each=due.amount, shares=shares, label=due.label
        ),
    )


def pay_den_lang(
    book: Book,
    table: SittingTerms,
    faulter: str,
    players: Sequence[str],
    amount: int,
    why: str,
    ga_kind: str = "den_lang",
) -> None:
    """Đền làng: quăng, ``amount`` to every other player; gom, ``amount`` × (n − 1) into the pool.

    The faulter also feeds the gà ``ga_kind`` (gà đền làng, gà ù báo) when the regime has it.
    """
    others = [p for p in players if p != faulter]
    if table.gom:
        total = amount * len(others)
        book.pay(
            faulter,
            POOL,
            total,
            REASONS["den_lang_pool"].format(
                payer=faulter, amount=total, each=amount, shares=len(others), label=why
            ),
        )
    else:
        for other in others:
            reason = REASONS["den_lang"].format(payer=faulter, payee=other, amount=amount, label=why)
            book.pay(faulter, other, amount, reason)
    contribute(book, table, ga_kind, faulter)
