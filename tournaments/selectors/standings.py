"""Standings of an event, rebuilt from the ledger (never from a cached number).

* points: the sum of each player's postings at the event's tables, play only (a sitting's
  settle-up entries bring balances to zero and are left out);
* ván played, wins, biggest single win (the points of the win, as the engine valued it) and
  the count of each cước: from the current version of every ván (corrections supersede);
* by player, and by village/hamlet/team (the registration's label), ranked by the event's
  tie-breaks, then by name.

:func:`compute_standings` runs a fixed number of queries (5), whatever the size of the event:
every aggregate is a ``GROUP BY`` in the database. Callers that need one consistent picture run
it inside a snapshot (see :func:`tournaments.services.leaderboard.rebuild_leaderboard`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Count, Max, QuerySet, Sum, TextField
from django.db.models.functions import Cast

from scoring.models import Account, Posting, Seat, TransactionKind, Van
from tournaments.models import Event, Registration, RegistrationStatus, Table, TieBreak

__all__ = ["Line", "Standings", "compute_standings", "rank_lines", "NO_TEAM"]

#: The team label of players registered without one.
NO_TEAM = "Tự do"

Progress = Callable[[str], None]


@dataclass(slots=True)
class Line:
    """One player's (or one team's) figures before ranking."""

    key: int | str
    name: str
    team: str = ""
    withdrawn: bool = False
    points: int = 0
    van: int = 0
    wins: int = 0
    best_win: int = 0
    players: int = 1
    cuoc: Counter[str] = field(default_factory=Counter)

    @property
    def per_van(self) -> float:
        return round(self.points / self.van, 2) if self.van else 0.0

    def sort_key(self, tie_breaks: Sequence[str]) -> tuple[float, ...]:
        values = {
            TieBreak.POINTS: -self.points,
            TieBreak.WINS: -self.wins,
            TieBreak.BEST_WIN: -self.best_win,
            TieBreak.PER_VAN: -self.per_van,
            TieBreak.FEWER_VAN: self.van,
        }
        return tuple(values[TieBreak(t)] for t in tie_breaks)


@dataclass(frozen=True, slots=True)
class Standings:
    players: list[dict[str, Any]]
    teams: list[dict[str, Any]]
    van_count: int
    ledger_seq: int


def rank_lines(lines: Iterable[Line], tie_breaks: Sequence[str]) -> list[dict[str, Any]]:
    """Rank by the tie-breaks in order; equal on all of them shares a rank ("đồng hạng")."""
    ordered = sorted(lines, key=lambda ln: (ln.sort_key(tie_breaks), ln.name.casefold(), str(ln.key)))
    out: list[dict[str, Any]] = []
    previous: tuple[float, ...] | None = None
    for position, line in enumerate(ordered, start=1):
        key = line.sort_key(tie_breaks)
        tied = key == previous
        rank = out[-1]["rank"] if tied else position
        if tied:
            out[-1]["tied"] = True
        previous = key
        out.append({
            "rank": rank, "tied": tied, "key": line.key, "name": line.name, "team": line.team,
            "withdrawn": line.withdrawn, "points": line.points, "van": line.van, "wins": line.wins,
            "best_win": line.best_win, "per_van": line.per_van, "players": line.players,
            "cuoc": dict(sorted(line.cuoc.items(), key=lambda kv: (-kv[1], kv[0]))),
        })
    return out


def _rows(queryset: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """The rows of a ``values_list`` query, fetched without Django's per-value converters (the
    aggregates here are plain ints and text; on a big event the converters cost as much as SQL)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _players(event: Event) -> dict[int, Line]:
    lines: dict[int, Line] = {}
    rows = Registration.objects.filter(event=event).values_list("player_id", "player__name", "team", "status")
    for player_id, name, team, status in rows:
        lines[player_id] = Line(player_id, name, team or NO_TEAM, status == RegistrationStatus.WITHDRAWN)
    return lines


def _seats(event: Event, lines: dict[int, Line]) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Seat id → player id, and sitting id → its seat ids (players seated but not registered count too)."""
    seat_player: dict[int, int] = {}
    by_sitting: dict[int, list[int]] = {}
    rows = Seat.objects.filter(sitting__event_table__event=event).order_by().values_list(
        "id", "sitting_id", "player_id", "player__name"
    )
    for seat_id, sitting_id, player_id, name in _rows(rows):
        seat_player[seat_id] = player_id
        by_sitting.setdefault(sitting_id, []).append(seat_id)
        if player_id not in lines:
            lines[player_id] = Line(player_id, name, NO_TEAM)
    return seat_player, by_sitting


def _add_points(event: Event, lines: dict[int, Line], seat_player: dict[int, int]) -> None:
    sittings = Table.objects.filter(event=event).values("sitting_id")
    postings = Posting.objects.filter(sitting_id__in=sittings, account=Account.PLAYER)
    by_seat = postings.values("seat_id").annotate(total=Sum("amount")).order_by().values_list("seat_id", "total")
    for seat_id, total in _rows(by_seat):
        lines[seat_player[seat_id]].points += total
    settled = postings.filter(
        sitting__ended_at__isnull=False, transaction__kind=TransactionKind.SETTLEMENT
    ).values("seat_id").annotate(total=Sum("amount")).order_by().values_list("seat_id", "total")
    for seat_id, total in _rows(settled):
        lines[seat_player[seat_id]].points -= total


def _add_van(
    event: Event, lines: dict[int, Line], seat_player: dict[int, int], by_sitting: dict[int, list[int]]
) -> int:
    """Ván played, wins, biggest win and cước, in one scan of the current ván: grouped by
    (sitting, winner, cước list as text), so each distinct cước list is decoded once."""
    sittings = Table.objects.filter(event=event).values("sitting_id")
    groups = (
        Van.objects.filter(sitting_id__in=sittings, is_current=True)
        .values("sitting_id", "winner_id", cuoc_text=Cast("cuoc", TextField()))
        .annotate(n=Count("id"), best=Max("points")).order_by()
        .values_list("sitting_id", "winner_id", "cuoc_text", "n", "best")
    )
    decoded: dict[str | None, list[str]] = {}
    per_sitting: Counter[int] = Counter()
    for sitting_id, seat_id, cuoc_text, n, best in _rows(groups):
        per_sitting[sitting_id] += n
        if seat_id is None:
            continue
        line = lines[seat_player[seat_id]]
        line.wins += n
        line.best_win = max(line.best_win, best or 0)
        if cuoc_text not in decoded:
            decoded[cuoc_text] = json.loads(cuoc_text) if cuoc_text else []
        for slug in decoded[cuoc_text]:
            line.cuoc[slug] += n
    for sitting_id, n in per_sitting.items():
        for seat_id in by_sitting.get(sitting_id, ()):
            lines[seat_player[seat_id]].van += n
    return sum(per_sitting.values())


def _teams(players: Iterable[Line]) -> list[Line]:
    teams: dict[str, Line] = {}
    for p in players:
        team = teams.get(p.team)
        if team is None:
            team = teams[p.team] = Line(p.team, p.team, p.team, players=0)
        team.points += p.points
        team.van += p.van
        team.wins += p.wins
        team.best_win = max(team.best_win, p.best_win)
        team.players += 1
        team.cuoc.update(p.cuoc)
    return list(teams.values())


def compute_standings(event: Event, *, progress: Progress | None = None) -> Standings:
    """The event's standings from the ledger as it stands (5 queries)."""
    say = progress or (lambda _msg: None)
    lines = _players(event)
    seat_player, by_sitting = _seats(event, lines)
    say(f"{len(lines)} người chơi, {len(by_sitting)} chiếu")
    _add_points(event, lines, seat_player)
    say("đã cộng điểm từ sổ")
    van_count = _add_van(event, lines, seat_player, by_sitting)
    say(f"đã đếm {van_count} ván, ván ù và cước")
    tie_breaks = event.tie_breaks or [TieBreak.POINTS]
    players = rank_lines(lines.values(), tie_breaks)
    teams = rank_lines(_teams(lines.values()), tie_breaks)
    return Standings(players, teams, van_count, event.ledger_seq)
