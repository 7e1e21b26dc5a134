"""Consistency checks of a recorded ván against the sitting (beyond the shape checked by parse)."""

from __future__ import annotations

from scoring.engine.errors import N_
from scoring.engine.games import ScoringFamily

from .context import SittingTerms
from .hoi import needs_opening
from .phom import validate_phom
from .types import BaoRegime, Fault, SittingState, VanRecord, van_error

__all__ = ["bao_regime", "validate_van"]

_WIN_ONLY = ("cuoc", "declared", "discarder", "fault")


def bao_regime(table: SittingTerms, van: VanRecord) -> BaoRegime | None:
    """How the ván's báo is paid: the ván's own regime, else the rule set's (None: no báo)."""
    if van.bao is None:
        return None
    return van.regime or table.rules.bao_regime


def validate_van(table: SittingTerms, state: SittingState, van: VanRecord) -> None:
    """Refuse a ván that cannot be settled, with a Vietnamese message naming it and the key."""
    if table.family is ScoringFamily.PHOM:
        validate_phom(state, van)
        return
    if van.ranks or van.den is not None:
        raise van_error(van.number, N_("'ranks' và 'den' chỉ dùng cho Phỏm."))
    _check_result(van)
    _check_seats(van)
    _check_faults(table, van)
    _check_stake(table, state, van)


def _check_result(van: VanRecord) -> None:
    if van.winner is not None and van.result == "hoa":
        raise van_error(van.number, N_("không thể vừa có người ù ('winner') vừa hòa ('result': \"hoa\")."))
    if van.winner is None and van.result is None and van.bao is None:
        raise van_error(
            van.number, N_("thiếu kết quả: ghi 'winner' (người ù), \"result\": \"hoa\" hoặc 'bao'.")
        )
    if van.winner is None:
        given = [key for key in _WIN_ONLY if getattr(van, key) not in (None, ())]
        if given:
            raise van_error(van.number, N_("'{key}' chỉ dùng khi có người ù ('winner')."), key=given[0])
    if van.regime is not None and van.bao is None:
        raise van_error(van.number, N_("'regime' chỉ dùng khi có người bị báo ('bao')."))


def _check_seats(van: VanRecord) -> None:
    for key in ("winner", "discarder", "bao"):
        name = getattr(van, key)
        if name is not None and name in van.chiu:
            raise van_error(
                van.number,
                N_("'{name}' đã chịu (bỏ ván) nên không thể là '{key}'."),
                code="chiu_player_named",
                name=name,
                key=key,
            )
    if van.discarder is not None and van.discarder == van.winner:
        raise van_error(
            van.number,
            N_("người ù '{name}' không thể là người đánh quân ù ('discarder')."),
            code="winner_discarded",
            name=van.winner,
        )
    if van.bao is not None and van.bao == van.winner:
        raise van_error(van.number, N_("người bị báo '{name}' không thể ù trong cùng ván."), name=van.bao)


def _check_faults(table: SittingTerms, van: VanRecord) -> None:
    if van.fault in (Fault.DANH_U_DEN, Fault.DEN_CHONG) and van.discarder is None:
        raise van_error(
            van.number, N_("'fault' {fault} cần 'discarder' (người đánh quân ù)."), fault=van.fault.value
        )
    if van.fault is Fault.XUONG_THUA and van.declared is None:
        raise van_error(van.number, N_("'fault' xuong_thua cần 'declared' (các cước đã xướng)."))
    if (
        bao_regime(table, van) is BaoRegime.NGOI_DAY
        and van.winner is not None
        and van.fault in (Fault.DANH_U_DEN, Fault.DEN_CHONG)
    ):
        raise van_error(
            van.number,
            N_("không thể vừa có người báo ngồi đấy vừa có người đánh ù đền: chỉ một người đền thay làng."),
        )


def _check_stake(table: SittingTerms, state: SittingState, van: VanRecord) -> None:
    if van.stake is None:
        return
    if not table.traits.stake_per_hoi:
        raise van_error(van.number, N_("'stake' (mức cược N) chỉ dùng cho Tài Bàn."))
    if table.gom and not needs_opening(table, state):
        raise van_error(
            van.number, N_("'stake' chỉ được đặt ở ván mở hội mới (mức cược cố định trong một hội).")
        )
