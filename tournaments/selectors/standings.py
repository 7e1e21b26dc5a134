"""Standings of an event, rebuilt from the ledger (never from a cached number).

* points: the sum of each player's postings at the event's canh (every sitting played at one of
  its tables), play only (a settled canh's settle-up entries bring balances to zero and are left
  out);
* ván played, wins, biggest single win (the points of the win, as the engine valued it) and
  the count of each cước: from the current version of every ván (corrections supersede);
* by player, and by village/hamlet/team (the registration's label), ranked by the event's
  tie-breaks, then by name;
* an event that counts confirmed ván only (:attr:`Event.count_confirmed_only`) counts the ván
  whose current version is confirmed (or needs no confirmation, :data:`COUNTED`): their postings
  (a correction's reversals are linked to the ván they reverse, so they cancel out), their wins
  and cước, and only them as ván played. A provisional or rejected ván counts once confirmed.

:func:`compute_standings` (the full rebuild) runs a fixed number of queries whatever the size of
the event: every aggregate is a ``GROUP BY`` in the database, over the event's sittings given as
one array (``sitting_id = ANY(…)``, hashed by PostgreSQL) rather than a join. Callers that need
one consistent picture run it inside a snapshot (see
:func:`tournaments.services.leaderboard.rebuild_leaderboard`). The incremental rebuild merges
per-canh tallies instead (:mod:`tournaments.selectors.tallies`) and ranks with the same
:func:`rank_lines`, so both give the same rows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from scoring.models import TransactionKind, VanStatus
from tournaments.models import Event, Registration, RegistrationStatus, TableSitting, TieBreak

__all__ = [
    "NO_TEAM", "Line", "Standings", "compute_standings", "line_row", "rank_lines", "rank_rows", "registered_lines",
    "team_lines",
]

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

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Line:
        """The line a stored row was ranked from."""
        return cls(row["key"], row["name"], row["team"], row["withdrawn"], row["points"], row["van"], row["wins"],
                   row["best_win"], row["players"], Counter(row["cuoc"]))


#: The value each tie-break ranks a row by (smaller first).
_KEYS: dict[str, Callable[[dict[str, Any]], float]] = {
    TieBreak.POINTS: lambda r: -r["points"],
    TieBreak.WINS: lambda r: -r["wins"],
    TieBreak.BEST_WIN: lambda r: -r["best_win"],
    TieBreak.PER_VAN: lambda r: -r["per_van"],
    TieBreak.FEWER_VAN: lambda r: r["van"],
}


@dataclass(frozen=True, slots=True)
class Standings:
    players: list[dict[str, Any]]
    teams: list[dict[str, Any]]
    van_count: int
    ledger_seq: int
    #: Canh whose stored ván count is stale: sitting id → (its ``changed_seq``, its ván now).
    stale_canh: dict[int, tuple[int, int]] = field(default_factory=dict)


def _cuoc_sorted(cuoc: Counter[str]) -> dict[str, int]:
    return dict(sorted(cuoc.items(), key=lambda kv: (-kv[1], kv[0]))) if len(cuoc) > 1 else dict(cuoc)


def line_row(line: Line) -> dict[str, Any]:
    """A line as a stored row, not yet ranked (see :func:`rank_rows`)."""
    return {
        "rank": 0, "tied": False, "key": line.key, "name": line.name, "team": line.team,
        "withdrawn": line.withdrawn, "points": line.points, "van": line.van, "wins": line.wins,
        "best_win": line.best_win, "per_van": line.per_van, "players": line.players,
        "cuoc": _cuoc_sorted(line.cuoc),
    }


def rank_rows(rows: Iterable[dict[str, Any]], tie_breaks: Sequence[str]) -> list[dict[str, Any]]:
    """Sort rows by the tie-breaks in order, then by name, and set their ``rank`` and ``tied``
    (in place): equal on all the tie-breaks shares a rank ("đồng hạng")."""
    keys = [_KEYS[t] for t in tie_breaks]
    keyed = sorted(
        ((tuple(k(r) for k in keys), r["name"].casefold(), str(r["key"]), i, r) for i, r in enumerate(rows)),
        key=lambda k: k[:4],
    )
    out: list[dict[str, Any]] = []
    previous: tuple[float, ...] | None = None
    for position, (key, _name, _key, _i, row) in enumerate(keyed, start=1):
        tied = key == previous
        if tied:
            out[-1]["tied"] = True
        row["rank"] = out[-1]["rank"] if tied else position
        row["tied"] = tied
        previous = key
        out.append(row)
    return out


def rank_lines(lines: Iterable[Line], tie_breaks: Sequence[str]) -> list[dict[str, Any]]:
    """Rank by the tie-breaks in order; equal on all of them shares a rank ("đồng hạng")."""
    return rank_rows([line_row(line) for line in lines], tie_breaks)


def fetch(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of a query, fetched without Django's per-value converters (plain ints and text here;
    on a big event the converters cost as much as the SQL)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def registered_lines(event_id: int, players: Iterable[int] | None = None) -> dict[int, Line]:
    """A line per registered player (all, or only ``players``), figures at zero."""
    regs = Registration.objects.filter(event_id=event_id)
    if players is not None:
        regs = regs.filter(player_id__in=list(players))
    rows = regs.values_list("player_id", "player__name", "team", "status")
    return {
        player_id: Line(player_id, name, team or NO_TEAM, status == RegistrationStatus.WITHDRAWN)
        for player_id, name, team, status in rows
    }


def add_unregistered(lines: dict[int, Line], players: Iterable[int]) -> None:
    """Players seated at the event's tables without a registration count too (by their name)."""
    missing = [p for p in set(players) if p not in lines]
    if missing:
        for player_id, name in fetch("SELECT id, name FROM scoring_player WHERE id = ANY(%s::bigint[])", [missing]):
            lines[player_id] = Line(player_id, name, NO_TEAM)


@dataclass(frozen=True, slots=True)
class _Canh:
    sittings: list[int]
    ended: list[int]
    #: sitting id → its changed_seq, for the canh whose stored ván count is stale.
    stale: dict[int, int]


def _sittings(event: Event) -> _Canh:
    """The event's sittings (every canh of every table), those settled up, and those whose
    stored ván count is stale."""
    rows = TableSitting.objects.filter(event=event).values_list(
        "sitting_id", "sitting__ended_at", "changed_seq", "van_stamp"
    )
    canh = _Canh([], [], {})
    for sitting_id, ended_at, changed, stamp in rows:
        canh.sittings.append(sitting_id)
        if ended_at is not None:
            canh.ended.append(sitting_id)
        if stamp != changed:
            canh.stale[sitting_id] = changed
    return canh


SEATS = "SELECT id, sitting_id, player_id FROM scoring_seat WHERE sitting_id = ANY(%s::bigint[])"
POINTS = ("SELECT seat_id, SUM(amount)::bigint FROM scoring_posting WHERE account = 'player' AND sitting_id = ANY(%s::bigint[]) "
          "GROUP BY seat_id")
#: Settle-up postings of settled canh, taken back out of the points (they are not play).
SETTLED = (
    "SELECT p.seat_id, SUM(p.amount)::bigint FROM scoring_posting p JOIN scoring_ledgertransaction t "
    "ON t.id = p.transaction_id WHERE p.account = 'player' AND p.sitting_id = ANY(%s::bigint[]) AND t.kind = %s "
    "GROUP BY p.seat_id"
)
VAN_PER_SITTING = "SELECT sitting_id, COUNT(*) FROM scoring_van WHERE is_current AND sitting_id = ANY(%s::bigint[]) GROUP BY 1"

#: The ván statuses an event that counts confirmed ván only counts (the parameter of the queries below).
COUNTED = [VanStatus.CONFIRMED.value, VanStatus.NOT_NEEDED.value]
#: Points from the postings of counted ván only (settle-up and other postings have no ván).
COUNTED_POINTS = (
    "SELECT p.seat_id, SUM(p.amount)::bigint FROM scoring_posting p JOIN scoring_ledgertransaction t "
    "ON t.id = p.transaction_id JOIN scoring_van v ON v.id = t.van_id WHERE p.account = 'player' "
    "AND p.sitting_id = ANY(%s::bigint[]) AND v.status = ANY(%s::text[]) GROUP BY p.seat_id"
)
COUNTED_VAN_PER_SITTING = (
    "SELECT sitting_id, COUNT(*) FROM scoring_van WHERE is_current AND sitting_id = ANY(%s::bigint[]) "
    "AND status = ANY(%s::text[]) GROUP BY 1"
)
#: Appended to a query over current ván (alias ``v``) with one more parameter, :data:`COUNTED`.
ONLY_COUNTED = " AND v.status = ANY(%s::text[])"


def _add_points(lines: dict[int, Line], seat_player: dict[int, int], sittings: list[int], ended: list[int],
                confirmed_only: bool = False) -> None:
    if confirmed_only:
        for seat_id, total in fetch(COUNTED_POINTS, [sittings, COUNTED]):
            lines[seat_player[seat_id]].points += total
        return
    for seat_id, total in fetch(POINTS, [sittings]):
        lines[seat_player[seat_id]].points += total
    if ended:
        for seat_id, total in fetch(SETTLED, [ended, TransactionKind.SETTLEMENT.value]):
            lines[seat_player[seat_id]].points -= total


def _add_van(lines: dict[int, Line], sittings: list[int], seats: list[tuple[int, int, int]],
             confirmed_only: bool = False) -> dict[int, int]:
    """Wins, biggest win and cước by player (grouped by the winner's player and the cước list as
    text, so each distinct list is decoded once), and ván played from each sitting's count."""
    groups = fetch(
        "SELECT s.player_id, v.cuoc::text, COUNT(*), MAX(v.points) FROM scoring_van v "
        "JOIN scoring_seat s ON s.id = v.winner_id WHERE v.is_current AND v.sitting_id = ANY(%s::bigint[])"
        + (ONLY_COUNTED if confirmed_only else "") + " GROUP BY 1, 2",
        [sittings, COUNTED] if confirmed_only else [sittings],
    )
    decoded: dict[str | None, list[str]] = {}
    for player_id, cuoc_text, n, best in groups:
        line = lines[player_id]
        line.wins += n
        if (best or 0) > line.best_win:
            line.best_win = best
        if cuoc_text not in decoded:
            decoded[cuoc_text] = json.loads(cuoc_text) if cuoc_text else []
        for slug in decoded[cuoc_text]:
            line.cuoc[slug] += n
    per_sitting = dict(fetch(COUNTED_VAN_PER_SITTING, [sittings, COUNTED]) if confirmed_only
                       else fetch(VAN_PER_SITTING, [sittings]))
    for _seat_id, sitting_id, player_id in seats:
        n = per_sitting.get(sitting_id)
        if n:
            lines[player_id].van += n
    return per_sitting


def team_lines(players: Iterable[dict[str, Any]]) -> list[Line]:
    """A line per village/hamlet/team, summed from its players' rows."""
    teams: dict[str, Line] = {}
    for p in players:
        name = p["team"]
        team = teams.get(name)
        if team is None:
            team = teams[name] = Line(name, name, name, players=0)
        team.points += p["points"]
        team.van += p["van"]
        team.wins += p["wins"]
        team.best_win = max(team.best_win, p["best_win"])
        team.players += 1
        cuoc = team.cuoc
        for slug, n in p["cuoc"].items():
            cuoc[slug] = cuoc.get(slug, 0) + n
    return list(teams.values())


def compute_standings(event: Event, *, progress: Progress | None = None) -> Standings:
    """The event's standings from the ledger as it stands (6 queries; 7 once a canh is settled)."""
    say = progress or (lambda _msg: None)
    lines = registered_lines(event.pk)
    canh = _sittings(event)
    seats = fetch(SEATS, [canh.sittings])
    seat_player = {seat_id: player_id for seat_id, _sitting, player_id in seats}
    add_unregistered(lines, seat_player.values())
    say(f"{len(lines)} người chơi, {len(canh.sittings)} canh")
    only = event.count_confirmed_only
    _add_points(lines, seat_player, canh.sittings, canh.ended, only)
    say("đã cộng điểm từ sổ" + (" (chỉ các ván đã xác nhận)" if only else ""))
    per_sitting = _add_van(lines, canh.sittings, seats, only)
    van_count = sum(per_sitting.values())
    say(f"đã đếm {van_count} ván, ván ù và cước")
    tie_breaks = event.tie_breaks or [TieBreak.POINTS]
    players = rank_lines(lines.values(), tie_breaks)
    teams = rank_lines(team_lines(players), tie_breaks)
    stale = {sitting: (changed, per_sitting.get(sitting, 0)) for sitting, changed in canh.stale.items()}
    return Standings(players, teams, van_count, event.ledger_seq, stale)
