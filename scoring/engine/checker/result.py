"""Immutable results of the hand checker, with the JSON shape of the CLI/API contract."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from scoring.engine.cards import Card
from scoring.engine.checker.verdict import Verdict

__all__ = ["CheckResult", "Wait", "WaitsResult"]


class CheckResult(NamedTuple):
    """The answer of :func:`check_hand` for one hand (immutable; a named tuple for speed)."""

    #: Game slug the hand was checked for.
    game: str
    #: The cards, as read.
    hand: tuple[Card, ...]
    #: Every card fits in a phu (Chắn: the cards form 10 pairs).
    tron: bool
    #: Tròn and the game's lưng (Chắn: 6 chắn) are there: the cards make a winning hand.
    valid: bool
    #: Lưng slugs of the arrangement shown, in phu order.
    lung: tuple[str, ...]
    #: Card-derived cước of the arrangement shown, repeats kept (two Lèo: "leo", "leo").
    cuoc: tuple[str, ...]
    verdict: Verdict
    #: The arrangement shown: phu (Chắn: pairs) as card codes; empty when not tròn.
    arrangement: tuple[tuple[str, ...], ...]
    #: The verdict in plain Vietnamese.
    message: str
    #: Tài Bàn only: weighted lưng count of the arrangement shown.
    lung_count: int | None = None
    #: Chắn only: number of chắn (a chíu counts two).
    chan_count: int | None = None
    #: Declared cước the cards do not show (xướng thừa).
    thua: tuple[str, ...] = ()
    #: Card-shown cước left out of the declaration (xướng thiếu).
    thieu: tuple[str, ...] = ()
    #: The declaration checked against, when one was given.
    declared: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the ``check`` contract."""
        out: dict[str, Any] = {
            "tron": self.tron,
            "valid": self.valid,
            "lung": list(self.lung),
            "cuoc": list(self.cuoc),
            "verdict": self.verdict.value,
            "arrangement": [list(p) for p in self.arrangement],
            "message": self.message,
        }
        if self.lung_count is not None:
            out["lung_count"] = self.lung_count
        return out


@dataclass(frozen=True, slots=True)
class Wait:
    """One card kind that completes a waiting hand."""

    card: Card
    #: Card-derived cước of the completed hand.
    cuoc: tuple[str, ...]
    #: Wait-dependent cước this win allows (bach_thu, xuyen_nam_gian, xuyen_bi_tu, chi_nay...).
    allows: tuple[str, ...]
    #: Tài Bàn only: weighted lưng count of the completed hand.
    lung_count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """One element of the ``waits`` list of the contract."""
        out: dict[str, Any] = {"card": self.card.code, "cuoc": list(self.cuoc), "allows": list(self.allows)}
        if self.lung_count is not None:
            out["lung_count"] = self.lung_count
        return out


@dataclass(frozen=True, slots=True)
class WaitsResult:
    """The answer of :func:`find_waits`: every winning card kind, in deck order."""

    game: str
    hand: tuple[Card, ...]
    waits: tuple[Wait, ...]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The winning card kinds."""
        return tuple(w.card for w in self.waits)

    def get(self, code: str) -> Wait | None:
        """The wait on the card with this code, if any."""
        return next((w for w in self.waits if w.card.code == code), None)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the ``waits`` contract."""
        return {"waits": [w.to_dict() for w in self.waits]}
