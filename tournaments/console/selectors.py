"""Reads of the console and the display: a table's live state, signals as JSON, a ván's timeline.

The state is derived: flags raised, bất thực counts and each seat's last signal come from the
signals of the ván under way; balances come from the ledger's postings (never a cached number).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from scoring.engine import CATALOGUE, get_game
from scoring.models import Seat, Van
from scoring.selectors.ledger import balances
from scoring.text import iso
from tournaments.console.catalogue import TRUNG_QUAN
from tournaments.console.models import FestivalTable, Signal, SignalEffect, SignalEvent, SignalKind

__all__ = [
    "TimelineVan",
    "cuoc_names",
    "draw_point",
    "initial_noc",
    "recent_signals",
    "canh_seat_names",
    "seat_names",
    "signal_json",
    "signals_json",
    "signals_for",
    "table_state",
    "timeline",
]

TRUNG_QUAN_NAME = "Trung Quân"
DECK_SIZE = 120


def initial_noc(game_slug: str) -> int:
    """Cards in the nọc when a ván starts: the deck less every hand (the dealer has one more)."""
    game = get_game(game_slug)
    return DECK_SIZE - game.players_max * game.deal - (game.dealer_deal - game.deal)


def draw_point(game_slug: str, folded: int) -> int:
    """The nọc count at which the ván is a draw (đốc nọc), after ``folded`` players chịu."""
    game = get_game(game_slug)
    return (game.draw_at or 1) + game.fold_draw_extra * folded


def signals_for(table: FestivalTable) -> QuerySet[Signal]:
    """The active signals of a table: the common ones and its village's own."""
    club_id = table.sitting.club_id
    scope = Q(club__isnull=True) | Q(club_id=club_id) if club_id else Q(club__isnull=True)
    return Signal.objects.filter(scope, is_active=True).order_by("order", "id")


def seat_names(table: FestivalTable) -> dict[int, str]:
    """Seat position → player's name in the canh under way, and 0 → "Trung Quân"."""
    names = dict(table.sitting.seats.order_by("position").values_list("position", "name"))
    return {TRUNG_QUAN: TRUNG_QUAN_NAME, **names}


def canh_seat_names(sitting_ids: Iterable[int]) -> dict[int, dict[int, str]]:
    """Each canh's seat names (players move one place round from canh to canh). 1 query."""
    found: dict[int, dict[int, str]] = {pk: {TRUNG_QUAN: TRUNG_QUAN_NAME} for pk in sitting_ids}
    for sitting_id, position, name in Seat.objects.filter(sitting_id__in=found).values_list(
        "sitting_id", "position", "name"
    ):
        found[sitting_id][position] = name
    return found


def signals_json(events: Iterable[SignalEvent]) -> list[dict[str, Any]]:
    """Signals (their ``signal`` loaded) as JSON, each player named as seated in its own canh."""
    events = list(events)
    names = canh_seat_names({ev.sitting_id for ev in events})
    return [signal_json(ev, names[ev.sitting_id]) for ev in events]


def signal_json(event: SignalEvent, names: dict[int, str] | None = None) -> dict[str, Any]:
    """A signal given, as the API answers it and the display shows it."""
    sig = event.signal
    if names is None:
        names = seat_names(event.table)
    return {
        "id": event.pk,
        "table": event.table_id,
        "sitting": event.sitting_id,
        "van_seq": event.van_seq,
        "seat": "trung_quan" if event.seat == TRUNG_QUAN else event.seat,
        "seat_name": names.get(event.seat, str(event.seat)),
        "signal": sig.slug,
        "label": sig.label,
        "display": sig.display,
        "meaning": sig.meaning,
        "kind": sig.kind,
        "pattern": sig.pattern,
        "icon": sig.icon,
        "color": sig.color,
        "effect": sig.effect,
        "noc_left": event.noc_left,
        "created_at": event.created_at.isoformat(),
    }


#: (id, seat, signal id) of a signal given: the state is folded from these, not from model rows.
Given = tuple[int, int, int]


def _brief(pk: int, sig: Signal) -> dict[str, Any]:
    """A signal as a seat of the display shows it (the state is sent on every event: keep it small)."""
    return {
        "id": pk,
        "signal": sig.slug,
        "label": sig.label,
        "display": sig.display,
        "meaning": sig.meaning,
        "icon": sig.icon,
        "color": sig.color,
        "kind": sig.kind,
    }


def _seat_state(
    position: int, name: str, given: Iterable[Given], catalogue: dict[int, Signal]
) -> dict[str, Any]:
    bat_thuc, last, flags, u, chiu, u_at = 0, None, {}, False, False, 0
    for pk, seat, signal_id in given:
        if seat != position:
            continue
        sig = catalogue[signal_id]
        last = (pk, sig)
        if sig.effect == SignalEffect.BAT_THUC:
            bat_thuc += 1
        elif sig.effect == SignalEffect.TRA_CHEN:
            bat_thuc = max(0, bat_thuc - 1)
        if sig.effect == SignalEffect.U:
            u, u_at = True, pk
        chiu = chiu or sig.effect == SignalEffect.CHIU
        if sig.kind == SignalKind.FLAG:
            flags[sig.slug] = {
                "signal": sig.slug,
                "display": sig.display,
                "label": sig.label,
                "color": sig.color,
            }
    return {
        "position": position,
        "name": name,
        "bat_thuc": bat_thuc,
        "u": u,
        #: The id of the seat's last ù signal (0: none): the latest claimant is the likely winner.
        "u_at": u_at,
        "chiu": chiu,
        "flags": list(flags.values()),
        "last": _brief(*last) if last else None,
    }


def table_state(
    table: FestivalTable, *, now: datetime | None = None, names: dict[int, str] | None = None
) -> dict[str, Any]:
    """Everything a display shows, as JSON. 5 queries (4 given the seat names)."""
    names = names if names is not None else seat_names(table)
    given: list[Given] = list(
        table.signals.filter(sitting_id=table.sitting_id, van_seq=table.van_seq)
        .order_by("id")
        .values_list("id", "seat", "signal_id")
    )
    catalogue = Signal.objects.in_bulk({g[2] for g in given})
    seats = [_seat_state(pos, name, given, catalogue) for pos, name in names.items() if pos != TRUNG_QUAN]
    tq = [g for g in given if g[1] == TRUNG_QUAN]
    money = balances(table.sitting).players
    for seat in seats:
        seat["balance"] = money.get(seat["name"], 0)
        seat["dealer"] = seat["position"] == table.dealer
        seat["turn"] = seat["position"] == table.turn
    folded = sum(1 for s in seats if s["chiu"])
    game = get_game(table.sitting.game)
    return {
        "table": table.pk,
        "sitting": table.sitting_id,
        "name": table.name,
        "van_seq": table.van_seq,
        "noc_left": table.noc_left,
        "draw_at": draw_point(table.sitting.game, folded),
        #: draw_at = base + per_fold × the seats that chịu (the display folds signals with it)
        "draw_rule": [game.draw_at or 1, game.fold_draw_extra],
        "dealer": table.dealer,
        "dealer_name": names.get(table.dealer) if table.dealer else None,
        "turn": table.turn,
        "van_started_at": iso(table.van_started_at),
        "server_now": (now or timezone.now()).isoformat(),
        "seats": seats,
        "trung_quan": _brief(tq[-1][0], catalogue[tq[-1][2]]) if tq else None,
        # The seats that signalled ù, the latest first: the ván form ticks the last claimant (a
        # "Hồi dài" after an earlier "Cờ đỏ" of another seat is the ù that counts).
        "u_seats": [s["position"] for s in sorted(seats, key=lambda s: -s["u_at"]) if s["u"]],
        "announcement": table.announcement,
    }


def recent_signals(table: FestivalTable, limit: int = 8) -> list[dict[str, Any]]:
    """The table's last signals, oldest first (the display's ticker)."""
    return signals_json(reversed(table.signals.select_related("signal").order_by("-id")[:limit]))


def cuoc_names(slugs: Iterable[str]) -> list[str]:
    return [CATALOGUE[s].name if s in CATALOGUE else s for s in slugs]


@dataclass(frozen=True, slots=True)
class TimelineVan:
    """One ván of the timeline: its canh (numbered from 1 at the table), its signals with their
    offset from the first one, and its record."""

    canh: int
    seq: int
    signals: list[dict[str, Any]]
    result: dict[str, Any] | None


def _table_canh(table: FestivalTable) -> list[int]:
    """The table's canh in play order: an event's chiếu's, else its one sitting."""
    if table.event_table_id:
        from tournaments.models import TableSitting

        found = list(
            TableSitting.objects.filter(table_id=table.event_table_id)
            .order_by("number")
            .values_list("sitting_id", flat=True)
        )
        if table.sitting_id in found:
            return found
    return [table.sitting_id]


def timeline(table: FestivalTable) -> list[TimelineVan]:
    """Every ván of the table, canh by canh, with its signals in order (for replaying afterwards).
    4 queries."""
    canh = _table_canh(table)
    canh += sorted(set(table.signals.exclude(sitting_id__in=canh).values_list("sitting_id", flat=True)))
    by_van: dict[tuple[int, int], list[dict[str, Any]]] = {}
    starts: dict[tuple[int, int], datetime] = {}
    events = list(table.signals.select_related("signal").order_by("id"))
    for ev, row in zip(events, signals_json(events), strict=True):
        key = (ev.sitting_id, ev.van_seq)
        start = starts.setdefault(key, ev.created_at)
        row["offset_ms"] = ms = int((ev.created_at - start).total_seconds() * 1000)
        row["offset"] = f"+{ms // 60000}:{ms // 1000 % 60:02d}"
        row["at"] = ev.created_at
        by_van.setdefault(key, []).append(row)
    results = {
        (v.sitting_id, v.seq): {
            "winner": v.winner.name if v.winner_id else None,
            "outcome": v.get_outcome_display(),
            "cuoc": cuoc_names(v.cuoc),
            "points": v.points,
        }
        for v in Van.objects.filter(sitting_id__in=canh, is_current=True).select_related("winner")
    }
    order = {pk: n for n, pk in enumerate(canh, start=1)}
    keys = sorted(set(by_van) | set(results), key=lambda k: (order[k[0]], k[1]))
    return [TimelineVan(order[k[0]], k[1], by_van.get(k, []), results.get(k)) for k in keys]
