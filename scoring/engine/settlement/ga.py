"""Gà: the gà trong pot (Chắn: gà nuôi) and gà ngoài (docs/rules.md §9, §12).

* Gà trong contributions are in dịch (× D points) and feed the pot only when the rule set's
  regime lists them (:meth:`RuleSet.ga_trong_applies`). Chắn's gà nuôi amounts are in points.
* The pot is taken whole by the winner of a valid, paid win with an eligible tiếng.
* Gà ngoài is extra points for listed tiếng, paid like the win (:mod:`.win`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.engine.errors import N_, Msg
from scoring.engine.games import GaPot
from scoring.engine.points import Breakdown
from scoring.engine.rules import (
    ChanGaNuoi,
    ChanGaNuoiContribution,
    GaContribution,
    GaDauHoiQuang,
    GaNgoaiKind,
)
from scoring.engine.words import GA_NAMES, PHRASES, REASONS

from .context import SittingTerms
from .ledger import Book
from .types import GA_TRONG, GaEvent, SittingState, VanRecord, van_error

__all__ = [
    "contribute",
    "event_contributions",
    "ga_ngoai_points",
    "hoi_contributions",
    "take_pot",
    "van_contributions",
]

#: Contributions paid by every *other* player than the one named in the event.
_PAID_BY_OTHERS = frozenset({"nhai", "chiu_noc"})


def _pot_name(table: SittingTerms) -> str:
    return PHRASES["ga_nuoi"] if table.traits.ga_pot is GaPot.NUOI else PHRASES["ga_trong"]


def _unit_points(table: SittingTerms, kind: str) -> int:
    """Points of one unit of contribution ``kind`` under the table's rules (0: not played)."""
    rules = table.rules
    if table.traits.ga_pot is GaPot.NUOI:
        if rules.chan_ga_nuoi is ChanGaNuoi.NONE:
            return 0
        return rules.chan_ga_nuoi_amounts.get(kind, 0)
    if not rules.ga_trong_applies(kind):
        return 0
    return rules.ga_trong_amounts.get(kind, 0) * rules.dich


def contribute(book: Book, table: SittingTerms, kind: str, payer: str, units: int = 1) -> int:
    """``payer`` feeds the pot ``units`` × the contribution ``kind``; return the points paid."""
    amount = _unit_points(table, kind) * units
    why = REASONS["ga_feed"].format(
        payer=payer, amount=amount, pot=_pot_name(table), label=GA_NAMES.get(kind, kind)
    )
    return book.pay(payer, GA_TRONG, amount, why)


def hoi_contributions(book: Book, table: SittingTerms, players: Sequence[str]) -> None:
    """Gà đầu hội from every player, when a hội opens (in quăng, the sitting's one hội: unless the
    rule set says gà đầu hội belongs to đánh gom only)."""
    if not table.gom and table.rules.ga_dau_hoi_quang is GaDauHoiQuang.NONE:
        return
    if table.traits.ga_dau_hoi:
        for player in players:
            contribute(book, table, GaContribution.DAU_HOI, player)


def van_contributions(book: Book, table: SittingTerms, players: Sequence[str]) -> None:
    """Gà đầu ván (Chắn: gà nuôi đầu ván) from every player, when a ván starts."""
    if table.traits.ga_pot is GaPot.NONE:
        return
    for player in players:
        contribute(book, table, "dau_van", player)


def _valid_kinds(table: SittingTerms) -> frozenset[str]:
    if table.traits.ga_pot is GaPot.NUOI:
        return frozenset(c.value for c in ChanGaNuoiContribution)
    if table.traits.ga_pot is GaPot.NONE:
        return frozenset()
    return frozenset(c.value for c in GaContribution)


def _event(
    book: Book, table: SittingTerms, players: Sequence[str], folded: Sequence[str], event: GaEvent
) -> None:
    units = event.count
    if event.chi_chi and table.traits.chi_chi_multiplies_ga:
        units *= table.rules.chan_ga_nuoi_chi_chi_factor
    if event.kind in _PAID_BY_OTHERS:
        for other in players:
            if other != event.player and other not in folded:
                contribute(book, table, event.kind, other, units)
    else:
        contribute(book, table, event.kind, event.player, units)


def event_contributions(book: Book, table: SittingTerms, state: SittingState, van: VanRecord) -> None:
    """The gà events the scorekeeper recorded (nhái, quân lộ, bị đè ù, bỏ ù; Chắn: chíu, nhái)."""
    kinds = _valid_kinds(table)
    for event in van.ga:
        if event.kind not in kinds:
            allowed: Any = sorted(kinds) or Msg(N_("(không có)"))
            raise van_error(
                van.number,
                N_("không có loại gà '{kind}' trong {game}. Loại hợp lệ: {allowed}."),
                kind=event.kind,
                game=table.game.name_vi,
                allowed=allowed,
            )
        _event(book, table, state.players, van.chiu, event)


def take_pot(book: Book, table: SittingTerms, winner: str, cuoc: Sequence[str], label: str) -> int:
    """The winner takes the whole pot when the win's tiếng is eligible; return the points."""
    rules = table.rules
    if table.traits.ga_pot is GaPot.NUOI:
        eligible = rules.takes_chan_ga_nuoi(cuoc)
    else:
        eligible = rules.takes_ga_trong(cuoc)
    if not eligible or book.pot == 0:
        return 0
    amount = book.pot
    why = REASONS["ga_take"].format(payee=winner, pot=_pot_name(table), amount=amount, label=label)
    return book.pay(GA_TRONG, winner, amount, why)


def _line_dich(table: SittingTerms, slug: str, dich: int | None, streak: int) -> int:
    if dich is not None:
        return dich
    rules = table.rules
    if slug in ("thong", "khoi"):
        return rules.khoi_value(max(streak, 2))[1]
    return rules.value_of(slug)[1]


def ga_ngoai_points(table: SittingTerms, breakdown: Breakdown, cuoc: Sequence[str], streak: int) -> int:
    """Gà ngoài of a win: the largest cước's dịch (đơn) or every cước's dịch (chồng), × D."""
    rules = table.rules
    if not rules.takes_ga_ngoai(cuoc):
        return 0
    dich = [_line_dich(table, line.cuoc, line.dich, streak) for line in breakdown.lines if line.cuoc != "ga"]
    total = max(dich, default=0) if rules.ga_ngoai is GaNgoaiKind.DON else sum(dich)
    return total * rules.dich
