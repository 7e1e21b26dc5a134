"""Writing the backup format (JSON) of sittings: everything needed to rebuild them elsewhere, ledger
included, keyed by stable ids. An event's backup (``tournaments.backup``) embeds these; the parts
registered by other apps (:mod:`scoring.backup.parts`) add their keys to a sitting's own file.

Format ``so-tom-backup`` version 1:
``rule_sets``: {fingerprint: {"preset", "spec"}} (the exact snapshots ván were scored under);
``clubs``, ``players``; ``sittings``: seats, hội, every ván version (current and superseded,
with its record, cards, correction and two-person confirmation with its reviews), every ledger transaction with its postings
(an event's file adds its history and its roles': :func:`~scoring.backup.format.history_json`). Derived
numbers (leaderboards) are left out: an importer rebuilds them from the ledger.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from scoring.backup.format import FORMAT, VERSION, iso
from scoring.backup.parts import parts
from scoring.models import Club, LedgerTransaction, Player, RuleSetSnapshot, Sitting
from scoring.selectors.ledger import user_name

__all__ = ["backup_envelope", "people_json", "rule_sets_json", "sitting_backup", "sitting_document"]


def _van(van: Any) -> dict[str, Any]:
    return {
        "id": van.pk,
        "seq": van.seq,
        "record": van.record,
        "cards": van.cards,
        "outcome": van.outcome,
        "winner": van.winner.position if van.winner_id else None,
        "fault": van.fault,
        "cuoc": van.cuoc,
        "declared": van.declared,
        "streak": van.streak,
        "points": van.points,
        "kiem_bai": van.kiem_bai,
        "is_current": van.is_current,
        "replaces": van.replaces_id,
        "correction_reason": van.correction_reason,
        "entered_by": user_name(van.entered_by),
        "created_at": iso(van.created_at),
        "status": van.status,
        "confirmed_by": user_name(van.confirmed_by),
        "confirmed_at": iso(van.confirmed_at),
        **_players(entered_player=van.entered_player_id, confirmed_player=van.confirmed_player_id),
        "reviews": [
            {
                "decision": r.decision,
                "reviewer": user_name(r.reviewer),
                "submitter": user_name(r.submitter),
                **_players(reviewer_player=r.reviewer_player_id, submitter_player=r.submitter_player_id),
                "reason": r.reason,
                "created_at": iso(r.created_at),
            }
            for r in van.reviews.all()
        ],
    }


def _players(**ids: int | None) -> dict[str, int]:
    """The seated players behind an entry or a review (two-person confirmation by identity), only
    those known: a file without them (written before, or nobody named) reads back the same."""
    return {key: pk for key, pk in ids.items() if pk is not None}


def _transaction(txn: LedgerTransaction) -> dict[str, Any]:
    return {
        "id": txn.pk,
        "kind": txn.kind,
        "reason": txn.reason,
        "van": txn.van_id,
        "reverses": txn.reverses_id,
        "created_by": user_name(txn.created_by),
        "created_at": iso(txn.created_at),
        "postings": [
            {
                "line": p.line,
                "account": p.account,
                "seat": p.seat.position if p.seat_id else None,
                "amount": p.amount,
                "why": p.why,
            }
            for p in txn.postings.all()
        ],
    }


def sitting_backup(sitting: Sitting) -> dict[str, Any]:
    """One sitting, whole: seats, hội, ván (all versions), transactions and postings."""
    vans = (
        sitting.van.select_related("winner", "entered_by", "confirmed_by")
        .prefetch_related("reviews__reviewer", "reviews__submitter")
        .order_by("id")
    )
    txns = (
        LedgerTransaction.objects.filter(sitting=sitting)
        .select_related("created_by")
        .prefetch_related("postings__seat")
        .order_by("id")
    )
    return {
        "id": sitting.pk,
        "title": sitting.title,
        "game": sitting.game,
        "mode": sitting.mode,
        "rules": sitting.rules.fingerprint,
        "club": sitting.club.slug if sitting.club_id else None,
        "created_by": user_name(sitting.created_by),
        "created_at": iso(sitting.created_at),
        "ended_at": iso(sitting.ended_at),
        "final_at": iso(sitting.final_at),
        "needs_confirmation": sitting.needs_confirmation,
        "seats": [
            {"position": s.position, "name": s.name, "player": s.player_id}
            for s in sitting.seats.order_by("position")
        ],
        "hoi": [h.to_dict() for h in sitting.hoi.order_by("index")],
        "van": [_van(v) for v in vans],
        "transactions": [_transaction(t) for t in txns],
    }


def rule_sets_json(snapshots: Iterable[RuleSetSnapshot]) -> dict[str, Any]:
    return {s.fingerprint: {"preset": s.preset, "spec": s.spec} for s in snapshots}


def people_json(sittings: Iterable[Sitting], extra_players: Iterable[int] = ()) -> dict[str, Any]:
    """The players seated in ``sittings`` (and ``extra_players``), with their clubs."""
    ids = {pid for s in sittings for pid in s.seats.values_list("player_id", flat=True)} | set(extra_players)
    players = Player.objects.filter(pk__in=ids).select_related("club").order_by("id")
    clubs = Club.objects.filter(pk__in={p.club_id for p in players if p.club_id}).order_by("id")
    return {
        "clubs": [{"id": c.pk, "name": c.name, "slug": c.slug, "kind": c.kind} for c in clubs],
        "players": [
            {"id": p.pk, "name": p.name, "club": p.club.slug if p.club_id else None} for p in players
        ],
    }


def backup_envelope(
    kind: str,
    body: dict[str, Any],
    sittings: list[Sitting],
    extra_players: Iterable[int] = (),
    extra_rules: Iterable[RuleSetSnapshot] = (),
) -> dict[str, Any]:
    """The whole backup document around ``body`` ({"event": …} or {"sitting": …})."""
    snapshots = {s.rules_id: s.rules for s in sittings} | {r.pk: r for r in extra_rules}
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "exported_at": timezone.now().isoformat(),
        **body,
        "rule_sets": rule_sets_json(snapshots.values()),
        **people_json(sittings, extra_players),
        "sittings": [sitting_backup(s) for s in sittings],
    }


def sitting_document(sitting: Sitting) -> dict[str, Any]:
    """A sitting's own backup file, with what the registered parts add to it (a console's state)."""
    body: dict[str, Any] = {"sitting": sitting.pk}
    for part in parts():
        if part.sitting is not None:
            body.update(part.sitting(sitting))
    return backup_envelope("sitting", body, [sitting])
