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
the event: every aggregate is a ``GROUP BY`` in the database over the event's canh, named by a
subquery (``sitting_id IN (SELECT sitting_id FROM tournaments_tablesitting WHERE event_id = …)``,
a hashed semi-join on PostgreSQL, an index look-up per canh on SQLite). The SQL is the one both
databases accept (the embedded default is SQLite, see ARCHITECTURE.md 17): no arrays, no ``::``
casts; lists of ids, where a query needs them, are ``IN (…)`` lists cut to the database's limit
of parameters (:func:`id_chunks`). Callers that need one consistent picture run it inside a
read snapshot (:func:`tournaments.services.leaderboard.read_snapshot`). The incremental rebuild
merges per-canh tallies instead (:mod:`tournaments.selectors.tallies`) and ranks with the same
:func:`rank_lines`, so both give the same rows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from scoring.models import Player, TransactionKind, VanStatus
from tournaments.models import Event, Registration, RegistrationStatus, TableSitting, TieBreak

__all__ = [
    "NO_TEAM",
    "Line",
    "Standings",
    "compute_standings",
    "fetch",
    "id_chunks",
    "in_list",
    "line_row",
    "rank_lines",
    "rank_rows",
    "registered_lines",
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
        return cls(
            row["key"],
            row["name"],
            row["team"],
            row["withdrawn"],
            row["points"],
            row["van"],
            row["wins"],
            row["best_win"],
            row["players"],
            Counter(row["cuoc"]),
        )


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
        "rank": 0,
        "tied": False,
        "key": line.key,
        "name": line.name,
        "team": line.team,
        "withdrawn": line.withdrawn,
        "points": line.points,
        "van": line.van,
        "wins": line.wins,
        "best_win": line.best_win,
        "per_van": line.per_van,
        "players": line.players,
        "cuoc": _cuoc_sorted(line.cuoc),
    }


def _tie_key(keys: list[Callable[[dict[str, Any]], float]]) -> Callable[[dict[str, Any]], tuple[float, ...]]:
    """One function giving a row's tie-break values as a tuple (the common lengths unrolled)."""
    if len(keys) == 1:
        (k0,) = keys
        return lambda r: (k0(r),)
    if len(keys) == 2:
        k0, k1 = keys
        return lambda r: (k0(r), k1(r))
    if len(keys) == 3:
        k0, k1, k2 = keys
        return lambda r: (k0(r), k1(r), k2(r))
    return lambda r: tuple([k(r) for k in keys])


def rank_rows(rows: Iterable[dict[str, Any]], tie_breaks: Sequence[str]) -> list[dict[str, Any]]:
    """Sort rows by the tie-breaks in order, then by name, and set their ``rank`` and ``tied``
    (in place): equal on all the tie-breaks shares a rank ("đồng hạng")."""
    tie = _tie_key([_KEYS[t] for t in tie_breaks])
    # Sorted as plain tuples (no key function: a 2,000-row board ranks in a quarter of the time);
    # the position ``i`` is unique, so two rows are never compared themselves.
    keyed = sorted([(tie(r), r["name"].casefold(), str(r["key"]), i, r) for i, r in enumerate(rows)])
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


def in_list(n: int) -> str:
    """``(%s, %s, …)``: the placeholders of an ``IN`` list of ``n`` values."""
    return "(" + ", ".join(["%s"] * n) + ")"


def id_chunks(ids: Sequence[Any], *, per: int = 1, spare: int = 8) -> Iterator[list[Any]]:
    """``ids`` cut so that a query with ``per`` parameters for each of them, and ``spare`` others,
    stays within the database's limit (999 on SQLite; PostgreSQL has none with Django's default
    client-side binding, 65,535 with server-side binding: 30,000 here)."""
    limit = connection.features.max_query_params or 30_000
    size = max(1, (limit - spare) // per)
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])


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
    missing = sorted(p for p in set(players) if p not in lines)
    for chunk in id_chunks(missing):
        for player_id, name in Player.objects.filter(pk__in=chunk).values_list("id", "name"):
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


#: The event's canh, as a subquery (its parameter: the event's id).
EVENT_CANH = "SELECT sitting_id FROM tournaments_tablesitting WHERE event_id = %s"
#: The event's settled canh (their settle-up postings are not play).
EVENT_SETTLED = (
    "SELECT ts.sitting_id FROM tournaments_tablesitting ts JOIN scoring_sitting st ON st.id = ts.sitting_id "
    "WHERE ts.event_id = %s AND st.ended_at IS NOT NULL"
)
SEATS = f"SELECT id, sitting_id, player_id FROM scoring_seat WHERE sitting_id IN ({EVENT_CANH})"
POINTS = (
    "SELECT seat_id, CAST(SUM(amount) AS BIGINT) FROM scoring_posting WHERE account = 'player' "
    f"AND sitting_id IN ({EVENT_CANH}) GROUP BY seat_id"
)
#: Settle-up postings of settled canh, taken back out of the points (they are not play).
SETTLED = (
    "SELECT p.seat_id, CAST(SUM(p.amount) AS BIGINT) FROM scoring_posting p JOIN scoring_ledgertransaction t "
    f"ON t.id = p.transaction_id WHERE p.account = 'player' AND p.sitting_id IN ({EVENT_SETTLED}) AND t.kind = %s "
    "GROUP BY p.seat_id"
)

#: The ván statuses an event that counts confirmed ván only counts (the parameters of the queries below).
COUNTED = [VanStatus.CONFIRMED.value, VanStatus.NOT_NEEDED.value]
#: Appended to a query over current ván (alias ``v``), with :data:`COUNTED` as its parameters.
ONLY_COUNTED = " AND v.status IN " + in_list(len(COUNTED))
VAN_PER_SITTING = (
    f"SELECT v.sitting_id, COUNT(*) FROM scoring_van v WHERE v.is_current AND v.sitting_id IN ({EVENT_CANH})"
)
#: Points from the postings of counted ván only (settle-up and other postings have no ván).
COUNTED_POINTS = (
    "SELECT p.seat_id, CAST(SUM(p.amount) AS BIGINT) FROM scoring_posting p JOIN scoring_ledgertransaction t "
    "ON t.id = p.transaction_id JOIN scoring_van v ON v.id = t.van_id WHERE p.account = 'player' "
    f"AND p.sitting_id IN ({EVENT_CANH}){ONLY_COUNTED} GROUP BY p.seat_id"
)
#: Wins, biggest win and cước by the winner's player and the cước list as text (so each distinct
#: list is decoded once; ``CAST(… AS TEXT)``: ``jsonb`` on PostgreSQL, text already on SQLite).
WINS = (
    "SELECT s.player_id, CAST(v.cuoc AS TEXT), COUNT(*), MAX(v.points) FROM scoring_van v "
    f"JOIN scoring_seat s ON s.id = v.winner_id WHERE v.is_current AND v.sitting_id IN ({EVENT_CANH})"
)


def _add_points(
    lines: dict[int, Line],
    seat_player: dict[int, int],
    event_id: int,
    ended: list[int],
    confirmed_only: bool = False,
) -> None:
    if confirmed_only:
        for seat_id, total in fetch(COUNTED_POINTS, [event_id, *COUNTED]):
            lines[seat_player[seat_id]].points += total
        return
    for seat_id, total in fetch(POINTS, [event_id]):
        lines[seat_player[seat_id]].points += total
    if ended:
        for seat_id, total in fetch(SETTLED, [event_id, TransactionKind.SETTLEMENT.value]):
            lines[seat_player[seat_id]].points -= total


def add_wins(lines: dict[Any, Line], groups: Iterable[tuple[Any, str | None, int, int | None]]) -> None:
    """Add grouped wins (key, cước list as text, count, biggest) to the lines of their keys."""
    decoded: dict[str | None, list[str]] = {}
    for key, cuoc_text, n, best in groups:
        line = lines[key]
        line.wins += n
        if (best or 0) > line.best_win:
            line.best_win = best or 0
        if cuoc_text not in decoded:
            decoded[cuoc_text] = json.loads(cuoc_text) if cuoc_text else []
        for slug in decoded[cuoc_text]:
            line.cuoc[slug] += n


def _add_van(
    lines: dict[int, Line], event_id: int, seats: list[tuple[int, int, int]], confirmed_only: bool = False
) -> dict[int, int]:
    """Wins, biggest win and cước by player, and ván played from each sitting's count."""
    only, counted = (ONLY_COUNTED, COUNTED) if confirmed_only else ("", [])
    add_wins(lines, fetch(WINS + only + " GROUP BY 1, 2", [event_id, *counted]))
    per_sitting = dict(fetch(VAN_PER_SITTING + only + " GROUP BY 1", [event_id, *counted]))
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
    seats = fetch(SEATS, [event.pk])
    seat_player = {seat_id: player_id for seat_id, _sitting, player_id in seats}
    add_unregistered(lines, seat_player.values())
    say(f"{len(lines)} người chơi, {len(canh.sittings)} canh")
    only = event.count_confirmed_only
    _add_points(lines, seat_player, event.pk, canh.ended, only)
    say("đã cộng điểm từ sổ" + (" (chỉ các ván đã xác nhận)" if only else ""))
    per_sitting = _add_van(lines, event.pk, seats, only)
    van_count = sum(per_sitting.values())
    say(f"đã đếm {van_count} ván, ván ù và cước")
    tie_breaks = event.tie_breaks or [TieBreak.POINTS]
    players = rank_lines(lines.values(), tie_breaks)
    teams = rank_lines(team_lines(players), tie_breaks)
    stale = {sitting: (changed, per_sitting.get(sitting, 0)) for sitting, changed in canh.stale.items()}
    return Standings(players, teams, van_count, event.ledger_seq, stale)
