"""Consistency checks of a recorded ván against the sitting (beyond the shape checked by parse)."""

from __future__ import annotations

from scoring.engine.errors import SettlementError
from scoring.engine.games import ScoringFamily

from .context import Table
from .hoi import needs_opening
from .phom import validate_phom
from .types import BaoRegime, Fault, SittingState, VanRecord

__all__ = ["bao_regime", "validate_van"]

_WIN_ONLY = ("cuoc", "declared", "discarder", "fault")


def _fail(van: VanRecord, message: str) -> SettlementError:
    return SettlementError(f"Ván {van.number}: {message}")


def bao_regime(table: Table, van: VanRecord) -> BaoRegime | None:
    """How the ván's báo is paid: the ván's own regime, else the rule set's (None: no báo)."""
    if van.bao is None:
        return None
    return van.regime or table.rules.bao_regime


def validate_van(table: Table, state: SittingState, van: VanRecord) -> None:
    """Refuse a ván that cannot be settled, with a Vietnamese message naming it and the key."""
    if table.family is ScoringFamily.PHOM:
        validate_phom(state, van)
        return
    if van.ranks or van.den is not None:
        raise _fail(van, "'ranks' và 'den' chỉ dùng cho Phỏm.")
    _check_result(van)
    _check_seats(van)
    _check_faults(table, van)
    _check_stake(table, state, van)


def _check_result(van: VanRecord) -> None:
    if van.winner is not None and van.result == "hoa":
        raise _fail(van, "không thể vừa có người ù ('winner') vừa hòa ('result': \"hoa\").")
    if van.winner is None and van.result is None and van.bao is None:
        raise _fail(van, "thiếu kết quả: ghi 'winner' (người ù), \"result\": \"hoa\" hoặc 'bao'.")
    if van.winner is None:
        given = [key for key in _WIN_ONLY if getattr(van, key) not in (None, ())]
        if given:
            raise _fail(van, f"'{given[0]}' chỉ dùng khi có người ù ('winner').")
    if van.regime is not None and van.bao is None:
        raise _fail(van, "'regime' chỉ dùng khi có người bị báo ('bao').")


def _check_seats(van: VanRecord) -> None:
    for key in ("winner", "discarder", "bao"):
        name = getattr(van, key)
        if name is not None and name in van.chiu:
            raise _fail(van, f"'{name}' đã chịu (bỏ ván) nên không thể là '{key}'.")
    if van.discarder is not None and van.discarder == van.winner:
        raise _fail(van, f"người ù '{van.winner}' không thể là người đánh quân ù ('discarder').")
    if van.bao is not None and van.bao == van.winner:
        raise _fail(van, f"người bị báo '{van.bao}' không thể ù trong cùng ván.")


def _check_faults(table: Table, van: VanRecord) -> None:
    if van.fault in (Fault.DANH_U_DEN, Fault.DEN_CHONG) and van.discarder is None:
        raise _fail(van, f"'fault' {van.fault.value} cần 'discarder' (người đánh quân ù).")
    if van.fault is Fault.XUONG_THUA and van.declared is None:
        raise _fail(van, "'fault' xuong_thua cần 'declared' (các cước đã xướng).")
    if (
        bao_regime(table, van) is BaoRegime.NGOI_DAY
        and van.winner is not None
        and van.fault in (Fault.DANH_U_DEN, Fault.DEN_CHONG)
    ):
        raise _fail(
            van, "không thể vừa có người báo ngồi đấy vừa có người đánh ù đền: chỉ một người đền thay làng."
        )


def _check_stake(table: Table, state: SittingState, van: VanRecord) -> None:
    if van.stake is None:
        return
    if table.family is not ScoringFamily.TAI_BAN:
        raise _fail(van, "'stake' (mức cược N) chỉ dùng cho Tài Bàn.")
    if table.gom and not needs_opening(table, state):
        raise _fail(van, "'stake' chỉ được đặt ở ván mở hội mới (mức cược cố định trong một hội).")
