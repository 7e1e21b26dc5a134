"""What the events API answers (``/api/v1/events…``): events, the stored standings with their
freshness, tables with their canh and seats, a registration, a round. Read from the same rows the
pages read; the standings are the stored board, never computed per request."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from scoring.models import Seat, Van
from scoring.text import iso
from tournaments.models import (
    Event,
    Leaderboard,
    Registration,
    RegistrationStatus,
    Round,
    Table,
    TableSitting,
)
from tournaments.selectors.pages import board_state

__all__ = [
    "event_detail_json",
    "event_json",
    "events_listed",
    "registration_json",
    "round_json",
    "standings_json",
    "tables_json",
]


def events_listed(events: QuerySet[Event]) -> QuerySet[Event]:
    return events.select_related("rules").annotate(round_count=Count("rounds", distinct=True))


def event_json(event: Event) -> dict[str, Any]:
    rules = event.rules
    return {
        "slug": event.slug,
        "name": event.name,
        "kind": event.kind,
        "date": event.date.isoformat(),
        # In the request's language when it is the computed default; as the organiser typed it otherwise.
        "lunar_label": event.lunar_shown,
        "game": event.game,
        "mode": event.mode,
        "rules": {
            "preset": rules.preset,
            "name": rules.spec.get("name") or "",
            "fingerprint": rules.fingerprint,
        },
        "is_public": event.is_public,
        "round_format": event.round_format,
        "van_per_round": event.van_per_round,
        "minutes_per_round": event.minutes_per_round,
        "van_per_sitting": event.van_per_sitting,
        "tie_breaks": list(event.tie_breaks),
        "confirmation_required": event.confirmation_required,
        "count_confirmed_only": event.count_confirmed_only,
        "finished_at": iso(event.finished_at),
        "rounds": event.round_count if hasattr(event, "round_count") else event.rounds.count(),
    }


def event_detail_json(event: Event, *, can_manage: bool) -> dict[str, Any]:
    statuses = Counter(Registration.objects.filter(event=event).values_list("status", flat=True))
    rounds = (
        Round.objects.filter(event=event)
        .order_by("number")
        .annotate(tables_count=Count("tables"), open_count=Count("tables", filter=Q(tables__closed_at=None)))
    )
    return {
        **event_json(event),
        "registrations": {
            "registered": statuses[RegistrationStatus.REGISTERED],
            "checked_in": statuses[RegistrationStatus.CHECKED_IN],
            "withdrawn": statuses[RegistrationStatus.WITHDRAWN],
        },
        "round_list": [
            {
                "number": r.number,
                "method": r.method,
                "remainder": r.remainder,
                "tables": r.tables_count,
                "open_tables": r.open_count,  # type: ignore[attr-defined]
                "created_at": iso(r.created_at),
            }
            for r in rounds
        ],
        "can_manage": can_manage,
    }


def standings_json(event: Event) -> dict[str, Any]:
    """The stored board as the scoreboard shows it, with how fresh it is: the ledger number it was
    built from against the event's, when, and whether a recompute is on its way."""
    board = Leaderboard.objects.filter(event=event).first() or Leaderboard(event=event)
    state = board_state(_with_board(event, board))
    return {
        "event": event.slug,
        "version": board.version,
        "computed_at": iso(board.computed_at),
        "ledger_seq": board.ledger_seq,
        "event_ledger_seq": event.ledger_seq,
        "pending": state.pending,
        "recompute_due_at": iso(event.recompute_due_at),
        "provisional": state.provisional,
        "finished": event.finished_at is not None,
        "count_confirmed_only": event.count_confirmed_only,
        "unconfirmed": state.unconfirmed,
        "van_count": board.van_count,
        "built_by": board.built_by,
        "failed_at": iso(board.failed_at),
        "failure": board.failure,
        "tie_breaks": list(event.tie_breaks),
        "rows": board.rows,
        "teams": board.teams,
    }


def _with_board(event: Event, board: Leaderboard) -> Event:
    event.leaderboard = board  # type: ignore[misc]  # board_state reads it without a query
    return event


def _seats(sitting_id: int, seats: dict[int, list[Seat]]) -> list[dict[str, Any]]:
    return [
        {"position": s.position, "name": s.name, "player_id": s.player_id} for s in seats.get(sitting_id, [])
    ]


def tables_json(event: Event, *, round_number: int | None = None) -> list[dict[str, Any]]:
    """Every table of the event (or of one round), with its canh, the current canh's seats and the
    ván played at the table this round. A fixed number of queries."""
    tables = Table.objects.filter(event=event).select_related("round").order_by("round__number", "number")
    if round_number is not None:
        tables = tables.filter(round__number=round_number)
    tables = tables.prefetch_related(
        Prefetch("canh", TableSitting.objects.select_related("sitting").order_by("number"))
    )
    found = list(tables)
    sittings = [c.sitting_id for t in found for c in t.canh.all()]
    counts = dict(
        Van.objects.filter(sitting_id__in=sittings, is_current=True)
        .values("sitting_id")
        .annotate(n=Count("id"))
        .values_list("sitting_id", "n")
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(sitting_id__in=[t.sitting_id for t in found]).order_by(
        "sitting_id", "position"
    ):
        seats.setdefault(seat.sitting_id, []).append(seat)
    out = []
    for t in found:
        canh = [
            {
                "number": c.number,
                "sitting_id": c.sitting_id,
                "van": counts.get(c.sitting_id, 0),
                "ended_at": iso(c.sitting.ended_at),
            }
            for c in t.canh.all()
        ]
        out.append(
            {
                "id": t.pk,
                "round": t.round.number,
                "number": t.number,
                "sitting_id": t.sitting_id,
                "seats": _seats(t.sitting_id, seats),
                "canh": canh,
                "van": sum(c["van"] for c in canh),
                "started_at": iso(t.started_at),
                "ends_at": iso(t.ends_at),
                "closed_at": iso(t.closed_at),
                "open": t.closed_at is None,
            }
        )
    return out


def registration_json(reg: Registration) -> dict[str, Any]:
    return {
        "id": reg.pk,
        "player_id": reg.player_id,
        "name": reg.player.name,
        "team": reg.team,
        "status": reg.status,
        "checked_in_at": iso(reg.checked_in_at),
        "created_at": iso(reg.created_at),
    }


def round_json(rnd: Round) -> dict[str, Any]:
    names = dict(
        Registration.objects.filter(event_id=rnd.event_id, player_id__in=rnd.byes).values_list(
            "player_id", "player__name"
        )
    )
    return {
        "number": rnd.number,
        "method": rnd.method,
        "remainder": rnd.remainder,
        "seed": rnd.seed,
        "byes": [{"player_id": p, "name": names.get(p, "")} for p in rnd.byes],
        "tables": tables_json(rnd.event, round_number=rnd.number),
        "created_at": iso(rnd.created_at),
    }
