"""Phỏm: settled by rank, by ù, or by đền (docs/rules.md §13, seed 003).

* Ranks (first to last): the k-th player (k ≥ 2) pays the first ``phom_rank_stakes[k − 2]``.
* Ù: every other player pays the winner ``phom_u_stake`` ("the others lose equally").
* Đền: the player who fed the ù winner three cards pays every loser's share alone.
"""

from __future__ import annotations

from scoring.engine.errors import N_, RuleError
from scoring.engine.words import LABELS, PHRASES, REASONS

from .context import SittingTerms
from .ledger import Book
from .types import SittingState, VanRecord, van_error

__all__ = ["settle_phom", "validate_phom"]

_PHOM_KEYS = ("winner", "ranks", "den")


def validate_phom(state: SittingState, van: VanRecord) -> None:
    """A Phỏm ván is either ``ranks`` (every player once) or an ù ``winner`` (optional ``den``)."""
    extra = [
        key
        for key, present in (
            ("cuoc", bool(van.cuoc)),
            ("declared", van.declared is not None),
            ("discarder", van.discarder),
            ("chiu", bool(van.chiu)),
            ("fault", van.fault),
            ("result", van.result),
            ("bao", van.bao),
            ("ga", bool(van.ga)),
            ("den_lang", bool(van.den_lang)),
            ("stake", van.stake),
        )
        if present
    ]
    if extra:
        raise van_error(
            van.number,
            N_("Phỏm không dùng khóa {keys}; chỉ dùng {allowed}."),
            keys=extra,
            allowed=list(_PHOM_KEYS),
        )
    if (van.winner is None) == (not van.ranks):
        raise van_error(
            van.number,
            N_("Phỏm cần 'ranks' (thứ hạng) hoặc 'winner' (người ù), không cả hai."),
            code="phom_result_missing",
        )
    if van.ranks and sorted(van.ranks) != sorted(state.players):
        raise van_error(
            van.number,
            N_("'ranks' phải xếp hạng đủ mọi người chơi, mỗi người một lần."),
            code="ranks_incomplete",
        )
    if van.den is not None and (van.winner is None or van.den == van.winner):
        raise van_error(
            van.number,
            N_("'den' phải là người khác người ù, và chỉ dùng khi có 'winner'."),
            code="den_is_winner",
        )


def settle_phom(book: Book, table: SittingTerms, state: SittingState, van: VanRecord) -> str:
    """Pay a Phỏm ván; return the first player (who deals next)."""
    rules = table.rules
    if van.winner is not None:
        winner = van.winner
        losers = [p for p in state.players if p != winner]
        stake = rules.phom_u_stake
        if van.den is not None:
            total = stake * len(losers)
            book.pay(
                van.den,
                winner,
                total,
                REASONS["phom_den"].format(
                    payer=van.den, payee=winner, amount=total, each=stake, shares=len(losers)
                ),
            )
        else:
            for loser in losers:
                why = REASONS["pay"].format(payer=loser, payee=winner, amount=stake, label=PHRASES["u"])
                book.pay(loser, winner, stake, why)
        return winner
    first = van.ranks[0]
    stakes = rules.phom_rank_stakes
    if len(stakes) < len(van.ranks) - 1:
        raise RuleError(
            N_("Luật: 'phom_rank_stakes' cần {need} mức cho {n} người chơi (đang có {have})."),
            need=len(van.ranks) - 1,
            n=len(van.ranks),
            have=len(stakes),
        )
    for place, player in enumerate(van.ranks[1:], start=2):
        amount = stakes[place - 2]
        label = LABELS["place"].format(place=place)
        book.pay(
            player,
            first,
            amount,
            REASONS["pay"].format(payer=player, payee=first, amount=amount, label=label),
        )
    return first
