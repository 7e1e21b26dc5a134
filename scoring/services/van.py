"""A ván between the engine and the database: its derived fields, the preview, the 409 errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import (
    N_,
    EngineError,
    Msg,
    Transfer,
    VanRecord,
    VanSettlement,
    check_request,
    parse_van,
    van_error,
)
from scoring.models import Seat, Sitting, Van, VanOutcome, VanStatus
from scoring.selectors.ledger import sitting_state_json, streak_label, van_json
from scoring.services.ledger import current_van, fold, seats_by_name, settle_next

__all__ = [
    "Preview",
    "check_cards",
    "SequenceConflict",
    "ResultsFinal",
    "SittingClosed",
    "van_fields",
    "van_preview",
    "van_reposted",
    "van_status",
]


class SequenceConflict(EngineError):
    """The write does not fit the sitting as it stands (HTTP 409); ``state`` is the current state."""

    code = "sequence_conflict"

    def __init__(self, message: str | Msg, /, *, state: Mapping[str, Any], **params: Any) -> None:
        super().__init__(message, **params)
        self.state = dict(state)

    @classmethod
    def for_seq(cls, sitting: Sitting, seq: int, expected: int) -> SequenceConflict:
        state = sitting_state_json(sitting)
        if 1 <= seq < expected:
            taken = sitting.van.select_related("winner", "entered_by", "sitting").get(
                is_current=True, seq=seq
            )
            state["van"] = van_json(taken)
            return cls(
                N_(
                    "Ván số {seq} đã được ghi; ván tiếp theo là số {expected}. "
                    "Nếu ván {seq} ghi sai, hãy dùng chức năng sửa ván."
                ),
                state=state,
                seq=seq,
                expected=expected,
            )
        return cls(
            N_("Ván tiếp theo là số {expected}, không phải số {seq}."),
            state=state,
            seq=seq,
            expected=expected,
        )


class SittingClosed(SequenceConflict):
    """The sitting is settled and ended: no more ván (HTTP 409)."""

    code = "sitting_closed"


class ResultsFinal(SittingClosed):
    """The results were made final (an event finished): nothing that changes them is accepted,
    by any page, API or console (HTTP 409)."""

    code = "results_final"

    def __init__(
        self, message: str | Msg, /, *, state: Mapping[str, Any] | None = None, **params: Any
    ) -> None:
        super().__init__(message, state=state or {}, **params)


def _outcome(record: VanRecord) -> VanOutcome:
    if record.result == "hoa":
        return VanOutcome.HOA
    if record.ranks:
        return VanOutcome.XEP_HANG
    if record.winner is not None:
        fault = record.fault.value if record.fault else None
        return {"lanh_lang": VanOutcome.U_LANH_LANG, "u_bao": VanOutcome.U_BAO}.get(fault or "", VanOutcome.U)
    if record.bao is not None:
        return VanOutcome.BAO
    return VanOutcome.PHAT


def van_status(*, sitting: Sitting) -> VanStatus:
    """The confirmation status of a ván (or a correction's new version) as it is written:
    provisional when the sitting asks a second person to confirm, else nothing to confirm."""
    return VanStatus.PROVISIONAL if sitting.needs_confirmation else VanStatus.NOT_NEEDED


def van_fields(*, record: VanRecord, settled: VanSettlement, seats: Mapping[str, Seat]) -> dict[str, Any]:
    """The columns of a ván derived from its record and its settlement (streak is computed)."""
    return {
        "outcome": _outcome(record),
        "winner": seats[record.winner] if record.winner else None,
        "fault": record.fault.value if record.fault else "",
        "cuoc": list(record.cuoc),
        "declared": list(record.declared) if record.declared is not None else None,
        "streak": settled.streak,
        "points": settled.points,
    }


def check_cards(*, game: str, record: VanRecord, cards: str) -> dict[str, Any] | None:
    """Kiểm bài: the checker's verdict on the winner's cards against what was declared (None: no
    cards given). Only recorded; the scorekeeper's record decides the settlement."""
    cards = (cards or "").strip()
    if not cards:
        return None
    if record.winner is None:
        raise van_error(record.number, N_("chỉ ghi quân bài (kiểm bài) cho ván có người ù."))
    declared = record.declared if record.declared is not None else record.cuoc
    request: dict[str, Any] = {"game": game, "hand": cards}
    if declared:
        request["declared"] = list(declared)
    try:
        return check_request(request)
    except EngineError as exc:
        raise exc.within(N_("Ván {number}: kiểm bài: {inner}"), number=record.number) from exc


def van_reposted(*, van: Van, settled: VanSettlement, save: bool = True) -> bool:
    """Refresh a later ván's computed streak and points after an earlier one was corrected; say
    whether they changed (``save=False``: the caller writes the changed ones in bulk)."""
    if (van.streak, van.points) == (settled.streak, settled.points):
        return False
    van.streak = settled.streak
    van.points = settled.points
    if save:
        van.save(update_fields=["streak", "points"])
    return True


@dataclass(frozen=True, slots=True)
class Preview:
    """What recording a ván would do: nothing is written."""

    seq: int
    points: int
    streak: int
    transfers: tuple[Transfer, ...]
    #: Accounts after the ván (for a correction preview: after that ván, before later ones).
    balances: dict[str, int]
    pool: int
    ga_trong: int
    hoi_opened: bool
    hoi_closed: bool
    breakdown: Mapping[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "points": self.points,
            "streak": self.streak,
            "streak_label": streak_label(self.streak),
            "transfers": [t.to_dict() for t in self.transfers],
            "balances": self.balances,
            "pool": self.pool,
            "ga_trong": self.ga_trong,
            "hoi_opened": self.hoi_opened,
            "hoi_closed": self.hoi_closed,
            "breakdown": dict(self.breakdown) if self.breakdown is not None else None,
        }


def van_preview(*, sitting: Sitting, record: Mapping[str, Any], seq: int | None = None) -> Preview:
    """Points, streak and every transfer (with its reason) of a ván, without writing anything.

    ``seq`` None (or the next number) previews the next ván; an earlier ``seq`` previews that
    ván's replacement (a correction) as it would settle after the ván before it.
    """
    if not isinstance(record, Mapping):
        raise EngineError(N_("Ván phải là một đối tượng JSON."))
    vans = current_van(sitting=sitting)
    expected = len(vans) + 1
    seq = expected if seq is None else seq
    if not 1 <= seq <= expected:
        raise EngineError(
            N_("Ván số {seq} không có; ván tiếp theo là số {expected}."), seq=seq, expected=expected
        )
    names = list(seats_by_name(sitting=sitting))
    folded = fold(sitting=sitting, records=[v.record for v in vans[: seq - 1]], names=names)
    settled = settle_next(table=folded.table, state=folded.state, record=parse_van(record, names, seq))
    state = settled.state
    return Preview(
        seq=seq,
        points=settled.points,
        streak=settled.streak,
        transfers=settled.transfers,
        balances=state.balance_map(),
        pool=state.pool,
        ga_trong=state.ga_trong,
        hoi_opened=settled.hoi_opened,
        hoi_closed=settled.hoi_closed,
        breakdown=settled.breakdown,
    )
