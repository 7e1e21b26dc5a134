"""A Trung Quân console in the backup format (``so-tom-backup``): the table's live state and every
signal given, and the signals they used. Written into a sitting's backup (a table of its own) and
into an event's (each chiếu's console); restored by ``scoring.backup``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scoring.selectors.ledger import user_name
from tournaments.console.models import FestivalTable

__all__ = ["console_backup", "signal_catalogue"]


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment else None


def console_backup(c: FestivalTable) -> dict[str, Any]:
    """The console's state (canh, ván, cái, lượt, nọc, announcement) and its signals, in order."""
    return {
        "name": c.name, "sitting": c.sitting_id, "trung_quan": user_name(c.trung_quan), "van_seq": c.van_seq,
        "dealer": c.dealer, "turn": c.turn, "noc_left": c.noc_left, "van_started_at": _iso(c.van_started_at),
        "announcement": c.announcement, "created_by": user_name(c.created_by), "created_at": _iso(c.created_at),
        "signals": [{"sitting": e.sitting_id, "van_seq": e.van_seq, "seat": e.seat, "signal": e.signal.slug,
                     "noc_left": e.noc_left, "created_by": user_name(e.created_by), "created_at": _iso(e.created_at),
                     "idempotency_key": e.idempotency_key} for e in sorted(c.signals.all(), key=lambda e: e.pk)],
    }


def signal_catalogue(consoles: Iterable[FestivalTable]) -> dict[str, Any]:
    """The drum and flag signals the consoles used (a village's own ones may exist nowhere else)."""
    used = {e.signal for c in consoles for e in c.signals.all()}
    return {s.slug: {"label": s.label, "display": s.display, "meaning": s.meaning, "kind": s.kind, "pattern": s.pattern,
                     "icon": s.icon, "color": s.color, "effect": s.effect, "order": s.order, "is_active": s.is_active,
                     "club": s.club.slug if s.club_id else None} for s in sorted(used, key=lambda s: s.slug)}
