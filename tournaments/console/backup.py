"""A Trung Quân console's part of the backup file (``so-tom-backup``, :mod:`scoring.backup`): the
table's live state and every signal given, and the signals they used. Written into a sitting's
backup (a table of its own: the part :data:`PART`, registered by the console app) and into an
event's (each chiếu's console, by ``tournaments.backup``); restored by :func:`console_restore`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.backup import BackupError, Part, Restorer, insert, iso, when
from scoring.engine import N_
from scoring.models import Sitting
from scoring.selectors.ledger import user_name
from tournaments.console.models import FestivalTable, Signal, SignalEvent

__all__ = ["PART", "console_backup", "console_restore", "signal_catalogue"]


def console_backup(c: FestivalTable) -> dict[str, Any]:
    """The console's state (canh, ván, cái, lượt, nọc, announcement) and its signals, in order."""
    return {
        "name": c.name,
        "sitting": c.sitting_id,
        "trung_quan": user_name(c.trung_quan),
        "van_seq": c.van_seq,
        "dealer": c.dealer,
        "turn": c.turn,
        "noc_left": c.noc_left,
        "van_started_at": iso(c.van_started_at),
        "announcement": c.announcement,
        # The displays' numbering goes on after a restore (a display resuming from an id of
        # before is sent a snapshot). The stored display events are not in the file: they are
        # kept an hour (DISPLAY_EVENT_RETENTION) and name the table's and signals' ids, which a
        # restore numbers anew.
        "stream_seq": c.stream_seq,
        "created_by": user_name(c.created_by),
        "created_at": iso(c.created_at),
        "signals": [
            {
                "sitting": e.sitting_id,
                "van_seq": e.van_seq,
                "seat": e.seat,
                "signal": e.signal.slug,
                "noc_left": e.noc_left,
                "created_by": user_name(e.created_by),
                "created_at": iso(e.created_at),
                "idempotency_key": e.idempotency_key,
            }
            for e in sorted(c.signals.all(), key=lambda e: e.pk)
        ],
    }


def signal_catalogue(consoles: Iterable[FestivalTable]) -> dict[str, Any]:
    """The drum and flag signals the consoles used (a village's own ones may exist nowhere else)."""
    used = {e.signal for c in consoles for e in c.signals.all()}
    return {
        s.slug: {
            "label": s.label,
            "display": s.display,
            "meaning": s.meaning,
            "kind": s.kind,
            "pattern": s.pattern,
            "icon": s.icon,
            "color": s.color,
            "effect": s.effect,
            "order": s.order,
            "is_active": s.is_active,
            "club": s.club.slug if s.club_id else None,
        }
        for s in sorted(used, key=lambda s: s.slug)
    }


def console_restore(
    c: Mapping[str, Any], table: Any, catalogue: Mapping[str, Any], restorer: Restorer
) -> None:
    """A chiếu's Trung Quân console: its state and signals. A signal missing from this database
    (a village's own) is added as the file describes it."""
    console = insert(
        FestivalTable(
            sitting_id=c["sitting"],
            event_table=table,
            name=c["name"],
            trung_quan=restorer.user(c.get("trung_quan")),
            van_seq=c["van_seq"],
            dealer=c.get("dealer"),
            turn=c.get("turn"),
            noc_left=c["noc_left"],
            van_started_at=when(c.get("van_started_at")),
            announcement=c.get("announcement"),
            stream_seq=c.get("stream_seq", 0),
            created_by=restorer.user(c.get("created_by")),
            created_at=when(c["created_at"]),
        )
    )
    signals: dict[str, Any] = {}
    for e in c.get("signals", []):
        slug = e["signal"]
        if slug not in signals:
            found = Signal.objects.filter(slug=slug).first()
            if found is None:
                if slug not in catalogue:
                    raise BackupError(N_("Bản sao lưu dùng hiệu '{slug}' mà không mô tả nó."), slug=slug)
                found = Signal.objects.create(
                    slug=slug, **{**catalogue[slug], "club": restorer.club(catalogue[slug]["club"])}
                )
            signals[slug] = found
        insert(
            SignalEvent(
                table=console,
                sitting_id=e["sitting"],
                van_seq=e["van_seq"],
                seat=e["seat"],
                signal=signals[slug],
                noc_left=e["noc_left"],
                created_by=restorer.user(e.get("created_by")),
                created_at=when(e["created_at"]),
                idempotency_key=e.get("idempotency_key", ""),
            )
        )


def _sitting_part(sitting: Sitting) -> dict[str, Any]:
    """A Tổ Tôm Điếm table of its own (no event) run from the Trung Quân console: its state and
    signals go with its sitting. (An event's chiếu is in the event's backup, with all its canh.)"""
    console = (
        FestivalTable.objects.filter(sitting=sitting, event_table__isnull=True)
        .select_related("trung_quan", "created_by")
        .prefetch_related("signals__signal__club", "signals__created_by")
        .first()
    )
    return (
        {"console": console_backup(console), "signal_catalogue": signal_catalogue([console])}
        if console
        else {}
    )


def _restore(document: Mapping[str, Any], restorer: Restorer) -> None:
    if document.get("kind") == "sitting" and document.get("console"):
        console_restore(document["console"], None, document.get("signal_catalogue", {}), restorer)


#: Registered by :meth:`tournaments.console.apps.ConsoleConfig.ready`.
PART = Part(name="tournaments.console", sitting=_sitting_part, restore=_restore)
