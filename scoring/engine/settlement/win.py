"""Settling a win: its streak, its faults, who pays it, gà (docs/rules.md §7–§10, §12)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine.errors import N_
from scoring.engine.points import Breakdown
from scoring.engine.rules import KinhTuCoPolicy
from scoring.engine.words import LABELS, PHRASES, REASONS

from .context import SittingTerms
from .ga import contribute, ga_ngoai_points, take_pot
from .ledger import Book
from .pay import Due, pay_den_lang, pay_win, payers_of
from .types import Fault, SittingState, VanRecord, van_error

__all__ = ["WinOutcome", "settle_win", "win_label"]

_SUBSTITUTE_FAULTS = frozenset({Fault.DANH_U_DEN, Fault.DEN_CHONG})


@dataclass(frozen=True, slots=True)
class WinOutcome:
    """What a win did, beyond its transfers."""

    points: int
    streak: int
    #: A valid, paid win: it extends the winner's streak.
    paid: bool
    #: The win cleared one báo chèo đò debt of the winner (and was unpaid).
    debt_cleared: bool = False
    #: The win took the whole pool (Kính Tứ Cố, hết hội).
    ends_hoi: bool = False
    #: The win was an ù lành làng (unpaid; the rule set says whether it breaks the streak).
    lanh_lang: bool = False
    breakdown: Mapping[str, Any] | None = None


def win_label(breakdown: Breakdown) -> str:
    """Vietnamese label of a win for transfer reasons ("ù Lèo, Thông")."""
    names = [
        line.name
        for line in breakdown.lines
        if line.cuoc != "ga" and (line.points > 0 or line is breakdown.lines[0])
    ]
    return LABELS["win"].format(names=", ".join(names))


def _is_subset(small: Sequence[str], big: Sequence[str]) -> bool:
    return not (Counter(small) - Counter(big))


def _effective_fault(table: SittingTerms, van: VanRecord) -> Fault | None:
    """The fault of the win, counting a declaration that differs from the hand (xướng sai)."""
    declared = van.declared
    if declared is None or van.fault in (Fault.U_BAO, Fault.XUONG_THUA):
        return van.fault
    if table.traits.declaration_exact:
        mismatch = Counter(declared) != Counter(van.cuoc)
    else:
        mismatch = not _is_subset(declared, van.cuoc)
    return Fault.XUONG_THUA if mismatch else van.fault


def _paid_cuoc(van: VanRecord, fault: Fault | None) -> tuple[str, ...]:
    """What the win is paid as: the declaration when it is a xướng thiếu, else the hand."""
    if van.declared is not None and fault is not Fault.XUONG_THUA:
        return van.declared
    return van.cuoc


def _den_lang_amount(
    table: SittingTerms, state: SittingState, van: VanRecord, fault: Fault, streak: int
) -> int:
    """Đền làng of a faulty win: the declared value (xướng thừa), the Chắn fine, else A."""
    if fault is Fault.XUONG_THUA and table.traits.xuong_thua_pays_declared:
        if van.declared is None:
            raise van_error(van.number, N_("'fault' xuong_thua cần 'declared' (các cước đã xướng)."))
        return table.score(state, van.declared, streak, van.number).points
    return table.den_lang_value(state)


def settle_win(
    book: Book, table: SittingTerms, state: SittingState, van: VanRecord, sitter: str | None
) -> WinOutcome:
    """Settle the win of ``van``; ``sitter`` is a báo ngồi đấy faulter who pays for the village."""
    winner = van.winner
    assert winner is not None
    streak = state.streak + 1 if state.streak_holder == winner else 1
    fault = _effective_fault(table, van)
    paid_cuoc = _paid_cuoc(van, fault)
    breakdown = table.score(state, paid_cuoc, streak, van.number)
    label = win_label(breakdown)
    if van.discarder is not None:
        contribute(book, table, "danh_u", van.discarder)
    if fault is Fault.LANH_LANG:
        contribute(book, table, "u_lanh_lang", winner)
        return WinOutcome(breakdown.points, streak, paid=False, lanh_lang=True, breakdown=breakdown.to_dict())
    if fault in (Fault.U_BAO, Fault.XUONG_THUA):
        amount = _den_lang_amount(table, state, van, fault, streak)
        why = PHRASES["xuong_thua"] if fault is Fault.XUONG_THUA else PHRASES["u_bao"]
        ga_kind = "u_bao" if fault is Fault.U_BAO else "den_lang"
        pay_den_lang(book, table, winner, state.players, amount, why, ga_kind)
        return WinOutcome(amount, streak, paid=False, breakdown=breakdown.to_dict())
    if fault is Fault.DEN_CHONG:
        assert van.discarder is not None
        amount = table.den_lang_value(state)
        pay_den_lang(book, table, van.discarder, state.players, amount, PHRASES["den_chong"])
    if state.debts(winner) > 0:
        return WinOutcome(
            breakdown.points, streak, paid=False, debt_cleared=True, breakdown=breakdown.to_dict()
        )
    substitute = van.discarder if fault in _SUBSTITUTE_FAULTS else sitter
    ends_hoi = _pay(book, table, state, van, breakdown, paid_cuoc, streak, substitute)
    _ga_thong(book, table, state, winner, streak)
    take_pot(book, table, winner, paid_cuoc, label)
    return WinOutcome(breakdown.points, streak, paid=True, ends_hoi=ends_hoi, breakdown=breakdown.to_dict())


def _pay(
    book: Book,
    table: SittingTerms,
    state: SittingState,
    van: VanRecord,
    breakdown: Breakdown,
    paid_cuoc: Sequence[str],
    streak: int,
    substitute: str | None,
) -> bool:
    """Pay the win and its gà ngoài; return whether it took the whole pool (hết hội)."""
    winner = van.winner
    assert winner is not None
    payers = payers_of(table, state.players, winner, van.chiu)
    label = win_label(breakdown)
    rules = table.rules
    if (
        table.gom
        and substitute is None
        and "kinh_tu_co" in paid_cuoc
        and rules.kinh_tu_co_policy is KinhTuCoPolicy.HET_HOI
    ):
        _het_hoi(book, table, winner, payers, label)
        return True
    dues = [Due(breakdown.points, label)]
    ga_ngoai = ga_ngoai_points(table, breakdown, paid_cuoc, streak)
    if ga_ngoai:
        dues.append(Due(ga_ngoai, LABELS["ga_ngoai"].format(label=label)))
    pay_win(book, table, winner, dues, payers, substitute)
    return False


def _het_hoi(book: Book, table: SittingTerms, winner: str, payers: Sequence[str], label: str) -> None:
    """Kính Tứ Cố, hết hội: the whole pool, topped up by every payer when it is small."""
    rules = table.rules
    if rules.gom_topup_below is not None and book.pool < rules.gom_topup_below:
        amount = rules.gom_topup_amount
        for payer in payers:
            book.pay(
                payer,
                winner,
                amount,
                REASONS["topup"].format(
                    payer=payer, amount=amount, payee=winner, below=rules.gom_topup_below, label=label
                ),
            )
    pool = book.pool
    book.take_from_pool(
        winner, pool, lambda taken: REASONS["het_hoi"].format(payee=winner, amount=taken, label=label)
    )


def _ga_thong(book: Book, table: SittingTerms, state: SittingState, winner: str, streak: int) -> None:
    """Gà thông: the winner's nhà trên pays the dịch of the Thông / Khôi into the pot."""
    rules = table.rules
    if rules.streak_cuoc(streak) is None or not table.traits.ga_thong:
        return
    seat = state.players.index(winner)
    nha_tren = state.players[seat - 1]
    contribute(book, table, "thong", nha_tren, rules.khoi_value(streak)[1])
