"""Reads behind the pages: who may see what, the board's live state, a table, a player's statement."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone

from scoring.engine import CATALOGUE
from scoring.models import Account, Posting, TransactionKind, Van, VanStatus
from scoring.selectors.ledger import balances, van_list
from tournaments.models import (
    Event,
    EventRole,
    Leaderboard,
    Registration,
    Round,
    RoundFormat,
    ScorekeeperToken,
    Table,
    TableSitting,
)

__all__ = [
    "BoardState",
    "board_state",
    "cuoc_name",
    "cuoc_scorers",
    "is_organiser",
    "player_statement",
    "rounds_with_tables",
    "table_view",
    "visible_events",
]


def is_organiser(user: Any, event: Event) -> bool:
    """The rule ``tournaments.manage_event`` (:mod:`tournaments.permissions`): organisers and staff."""
    return bool(user is not None and user.has_perm("tournaments.manage_event", event))


def visible_events(user: Any) -> QuerySet[Event]:
    """The events ``tournaments.view_event`` lets the user see: public ones, and private ones they
    organise, hold a role in (scorekeeper, Trung Quân) or are registered in with their account."""
    events = Event.objects.all()
    if not (getattr(user, "is_authenticated", False) and user.is_active):
        return events.filter(is_public=True)
    if user.is_staff or user.is_superuser:
        return events
    return events.filter(
        Q(is_public=True)
        | Q(pk__in=Event.objects.filter(organisers=user).values("pk"))
        | Q(pk__in=EventRole.objects.filter(user=user).values("event_id"))
        | Q(pk__in=Registration.objects.filter(player__user=user).values("event_id"))
    )


def cuoc_name(slug: str) -> str:
    cuoc = CATALOGUE.get(slug)
    return cuoc.name if cuoc else slug


@dataclass(frozen=True, slots=True)
class BoardState:
    event: Event
    board: Leaderboard
    #: A ván was recorded after the stored board was built: a recompute is on its way.
    pending: bool

    @property
    def provisional(self) -> bool:
        return self.event.finished_at is None or self.pending

    @property
    def unconfirmed(self) -> int:
        """Current ván of the event still waiting for a second person (provisional or rejected);
        one query, and none unless the event asks for confirmation. The tag changes with every
        confirmation (it bumps the event's ledger number), so a cached board shows it fresh."""
        if not self.event.confirmation_required:
            return 0
        return Van.objects.filter(
            sitting__event_canh__event=self.event,
            is_current=True,
            status__in=[VanStatus.PROVISIONAL, VanStatus.REJECTED],
        ).count()

    @property
    def tag(self) -> str:
        """What the polling page already shows: the same tag answers 204 (nothing to swap)."""
        return f"{self.board.version}.{int(self.pending)}.{int(self.event.finished_at is not None)}"


def events_with_board_state() -> QuerySet[Event]:
    """Events with their stored leaderboard's state (version, ledger number), not its rows or teams:
    what a board page or a push needs to know whether, and what, to render."""
    return Event.objects.select_related("leaderboard").defer("leaderboard__rows", "leaderboard__teams")


def board_state(event: Event) -> BoardState:
    """The stored leaderboard of an event (already loaded with ``select_related``: no query)."""
    board = getattr(event, "leaderboard", None) or Leaderboard(event=event)
    return BoardState(event, board, board.ledger_seq < event.ledger_seq)


def cuoc_scorers(rows: list[dict[str, Any]], *, limit: int | None = None) -> list[dict[str, Any]]:
    """Who scored which cước (rarest first): "Chi Nẩy: Bình ×1". ``limit``: name at most that many
    scorers of each cước (the most often first); ``more`` says how many are left out."""
    found: dict[str, list[tuple[str, int]]] = {}
    for row in rows:
        for slug, n in row.get("cuoc", {}).items():
            found.setdefault(slug, []).append((row["name"], n))
    out = []
    for slug, who in found.items():
        ranked = sorted(who, key=lambda w: (-w[1], w[0]))
        shown = ranked if limit is None else ranked[:limit]
        out.append(
            {
                "slug": slug,
                "name": cuoc_name(slug),
                "total": sum(n for _, n in who),
                "who": shown,
                "more": len(ranked) - len(shown),
            }
        )
    return sorted(out, key=lambda c: (c["total"], c["name"]))


def rounds_with_tables(event: Event) -> list[Round]:
    """The event's rounds, newest first, with their tables; each table carries its ``progress``:
    the ván played (current versions, every canh of the table) out of the round's ván (None for
    timed rounds), the last ván's time, and who holds its active PINs. Three queries whatever the
    number of tables."""
    rounds = list(
        Round.objects.filter(event=event).order_by("-number").prefetch_related("tables__sitting__seats")
    )
    tables = [t for r in rounds for t in r.tables.all()]
    ids = [t.pk for t in tables]
    played = {
        row["table_id"]: row
        for row in TableSitting.objects.filter(table_id__in=ids)
        .values("table_id")
        .annotate(
            n=Count("sitting__van", filter=Q(sitting__van__is_current=True)),
            last=Max("sitting__van__created_at"),
        )
    }
    holders: dict[int, list[str]] = {}
    for table_id, label in (
        ScorekeeperToken.objects.filter(table_id__in=ids, revoked_at__isnull=True)
        .order_by("created_at")
        .values_list("table_id", "label")
    ):
        holders.setdefault(table_id, []).append(label or "?")
    of = event.van_per_round if event.round_format == RoundFormat.VAN else None
    for t in tables:
        row = played.get(t.pk, {})
        t.progress = {
            "played": row.get("n", 0),
            "of": of,
            "last": row.get("last"),  # type: ignore[attr-defined]
            "holders": holders.get(t.pk, []),
        }
    return rounds


@dataclass(frozen=True, slots=True)
class TableView:
    table: Table
    #: The players in seat order of the current canh, with their points at this table this round.
    seats: list[tuple[str, int]]
    #: The current canh's ván.
    van: list[dict[str, Any]]
    next_seq: int
    #: The current canh's number, and every canh's (number, ván count) so far.
    canh_number: int
    canh: list[tuple[int, int]]
    #: Ván per canh (None: one canh for the whole round).
    van_per_canh: int | None
    #: Ván at this table this round, and the round's fixed ván (None: a time limit).
    round_van: int
    van_limit: int | None
    #: When the table's time is up (None: a fixed number of ván).
    deadline: datetime | None

    @property
    def closed(self) -> bool:
        return self.table.closed_at is not None

    @property
    def over(self) -> bool:
        """The round is over at this table: time is up, or its ván are all played."""
        if self.deadline is not None:
            return timezone.now() >= self.deadline
        return self.van_limit is not None and self.round_van >= self.van_limit

    @property
    def finished(self) -> bool:
        """The organiser has made the event's results final: no more ván anywhere."""
        return self.table.event.finished_at is not None

    @property
    def can_record(self) -> bool:
        return (
            not self.closed
            and not self.finished
            and not (self.van_limit is not None and self.round_van >= self.van_limit)
        )

    @property
    def can_substitute(self) -> bool:
        return not self.closed and self.round_van == 0 and len(self.canh) == 1


def _deadline(table: Table, event: Event) -> datetime | None:
    if event.round_format != RoundFormat.TIME:
        return None
    return table.ends_at or table.started_at + timedelta(minutes=event.minutes_per_round)


def table_view(table: Table) -> TableView:
    event = table.event
    canh = list(TableSitting.objects.filter(table=table).select_related("sitting").order_by("number"))
    current = next((c for c in canh if c.sitting_id == table.sitting_id), canh[-1] if canh else None)
    sitting = current.sitting if current else table.sitting
    van = van_list(sitting)
    for v in van:
        v["cuoc_names"] = [cuoc_name(slug) for slug in v["cuoc"]]
    points: dict[str, int] = {}
    counts, names = [], []
    for c in canh:
        sheet = balances(c.sitting, play_only=True).players
        for name, amount in sheet.items():
            points[name] = points.get(name, 0) + amount
        if c is current:
            names = list(sheet)
        counts.append((c.number, len(van) if c is current else c.sitting.van.filter(is_current=True).count()))
    timed = event.round_format == RoundFormat.TIME
    return TableView(
        table=table,
        seats=[(name, points.get(name, 0)) for name in names],
        van=van,
        next_seq=len(van) + 1,
        canh_number=current.number if current else 1,
        canh=counts,
        van_per_canh=event.van_per_sitting or None,
        round_van=sum(n for _, n in counts),
        van_limit=None if timed else event.van_per_round,
        deadline=_deadline(table, event),
    )


def player_statement(event: Event, player_id: int) -> list[dict[str, Any]]:
    """Every posting of the player at the event's tables as the ledger stands (reversed ones and
    their reversals left out, settle-up left out), with a running total. 1 query."""
    rows = (
        Posting.objects.filter(
            sitting__event_canh__event=event,
            account=Account.PLAYER,
            seat__player_id=player_id,
            transaction__kind__in=[TransactionKind.GOM, TransactionKind.VAN],
            transaction__reversed_by__isnull=True,
        )
        .order_by(
            "sitting__event_canh__table__round__number",
            "sitting__event_canh__table__number",
            "sitting__event_canh__number",
            "transaction__van__seq",
            "transaction_id",
            "line",
        )
        .values_list(
            "sitting__event_canh__table__round__number",
            "sitting__event_canh__table__number",
            "sitting__event_canh__number",
            "transaction__van__seq",
            "transaction__created_at",
            "amount",
            "why",
        )
    )
    total = 0
    out = []
    for round_no, table_no, canh_no, seq, at, amount, why in rows:
        total += amount
        out.append(
            {
                "round": round_no,
                "table": table_no,
                "canh": canh_no,
                "van": seq,
                "at": at,
                "amount": amount,
                "total": total,
                "why": why,
            }
        )
    return out


def registration_for(event: Event, player_id: int) -> Registration | None:
    return Registration.objects.filter(event=event, player_id=player_id).select_related("player").first()
