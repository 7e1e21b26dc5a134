"""The incremental leaderboard: one new ván reflected without reading the whole ledger.

Inside the caller's snapshot (see :func:`tournaments.services.leaderboard.update_leaderboard`),
with the stored board built at ledger number ``base`` and the event now at ``seen``:

1. the canh and registrations changed since (``changed_seq > base``) name the affected players;
2. each affected player's line is rebuilt from scratch: the tallies of every seat they have at
   the event (stored ones still stamped with their canh's current ``changed_seq``, the others
   rebuilt from that seat's own ledger) and the ván count of each of their canh;
3. every other player's line is the stored row, which no change since ``base`` touched;
4. the whole table is ranked again; the teams of the affected players are summed again from
   their players' rows (the other teams' rows kept); the ván total is the sum of every canh's
   stored count (recounting the stale ones).

Two things keep a pass within its 50 ms on a 2,000-player board: the worker keeps the board it
last stored (rows and each row's encoded text), so the next pass neither reads nor parses it
again, and only the changed rows are encoded anew (:func:`rows_json`).

The SQL is the one SQLite and PostgreSQL both accept (no arrays, ``CAST`` instead of ``::``,
``INSERT … ON CONFLICT … DO UPDATE … WHERE``, ``UPDATE … FROM`` a ``VALUES`` list), one path on both.

The result is the standings at ``seen``, equal to a full rebuild's. Nothing is a delta: every
figure merged is rebuilt from the ledger of its own canh or seat and stamped with the state it
was read at. With no base (a new board), or more changes than an incremental pass is worth, it
answers ``None`` and the caller runs the full rebuild in the same snapshot.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError, connection, transaction

from tournaments.models import RegistrationStatus, dump_json
from tournaments.selectors.standings import (
    NO_TEAM,
    Line,
    Standings,
    fetch,
    id_chunks,
    line_row,
    rank_rows,
    team_lines,
)
from tournaments.selectors.tallies import (
    SeatRef,
    Tally,
    build_tallies,
    canh_van,
    merge_lines,
    tally_rows,
)

__all__ = ["MAX_CANH", "MAX_SEATS", "Plan", "incremental_standings", "store_caches", "store_canh_van"]

log = logging.getLogger(__name__)

#: Above this many changed (or uncounted) canh, the full rebuild is cheaper.
MAX_CANH = 400
#: Above this many seat tallies to rebuild, likewise.
MAX_SEATS = 4000


@dataclass(slots=True)
class Plan:
    standings: Standings
    #: Seat tallies rebuilt in this pass (stored after it for the next passes).
    tallies: list[Tally] = field(default_factory=list)
    #: The rows as stored (JSON text) and each row's text after its rank (see :func:`rows_json`).
    rows_text: str | None = None
    tails: dict[Any, str] | None = None


@dataclass(frozen=True, slots=True)
class _Base:
    seen: int
    base: int
    rows: list[dict[str, Any]]
    teams: list[dict[str, Any]]
    van_count: int
    tie_breaks: list[str]
    tails: dict[Any, str]
    #: The event counts confirmed ván only.
    confirmed_only: bool = False


@dataclass(frozen=True, slots=True)
class _Kept:
    version: int
    #: The stored ``computed_at`` as text (``CAST(… AS TEXT)``: the same on both sides of a comparison).
    computed_at: str
    rows: list[dict[str, Any]]
    teams: list[dict[str, Any]]
    tails: dict[Any, str]


#: The board this process last stored, per event. A worker that stored the board the next pass
#: starts from need not read and parse it again: the version and time it was stored at (both
#: answered by the write itself) say it is the same board.
_LAST: dict[int, _Kept] = {}


def remember(
    *,
    event_id: int,
    version: int,
    computed_at: Any,
    standings: Standings,
    tails: dict[Any, str] | None = None,
) -> None:
    _LAST[event_id] = _Kept(version, computed_at, standings.players, standings.teams, tails or {})


#: The event's number and tie-breaks with the stored board; the board's rows only when they are
#: not the ones this process holds (same version, same time).
BASE = """
SELECT e.ledger_seq, CAST(e.tie_breaks AS TEXT), e.count_confirmed_only, b.ledger_seq, b.van_count,
       CASE WHEN b.version = %(version)s AND CAST(b.computed_at AS TEXT) = %(at)s THEN 1 ELSE 0 END,
       CASE WHEN b.version = %(version)s AND CAST(b.computed_at AS TEXT) = %(at)s THEN NULL ELSE b.rows END,
       CASE WHEN b.version = %(version)s AND CAST(b.computed_at AS TEXT) = %(at)s THEN NULL ELSE b.teams END
FROM tournaments_event e JOIN tournaments_leaderboard b ON b.event_id = e.id WHERE e.id = %(event)s
"""


def _base(event_id: int) -> _Base | None:
    """The event's number and tie-breaks with the stored board (one query; the board's rows
    only when this process does not hold them already)."""
    kept = _LAST.get(event_id)
    version, at = (kept.version, kept.computed_at) if kept else (-1, "")
    found = fetch(BASE, {"version": version, "at": at, "event": event_id})
    if not found or found[0][3] < 0:
        return None
    seen, tie_breaks, only, base, van_count, same, rows, teams = found[0]
    tie = json.loads(tie_breaks) or ["points"]
    if same and kept is not None:
        return _Base(seen, base, kept.rows, kept.teams, van_count, tie, kept.tails, bool(only))
    return _Base(seen, base, json.loads(rows), json.loads(teams), van_count, tie, {}, bool(only))


def rows_json(
    *, rows: list[dict[str, Any]], known: dict[Any, str], skip: Container[Any]
) -> tuple[str, dict[Any, str]]:
    """The stored text of ranked rows, byte for byte what :func:`dump_json` writes, reusing the
    text after the rank of every row whose figures did not change (``known``, except the keys in
    ``skip``): a pass that changed five players encodes five rows, not two thousand."""
    tails: dict[Any, str] = {}
    parts = []
    for row in rows:
        key = row["key"]
        tail = None if key in skip else known.get(key)
        if tail is None:
            tail = dump_json({k: v for k, v in row.items() if k not in ("rank", "tied")})[1:]
        tails[key] = tail
        parts.append(f'{{"rank":{row["rank"]},"tied":{"true" if row["tied"] else "false"},{tail}')
    return "[" + ",".join(parts) + "]", tails


#: The canh changed since the base, and the players whose line they (or a changed registration) touch.
CHANGED = """
WITH dirty AS (
    SELECT sitting_id FROM tournaments_tablesitting WHERE event_id = %(event)s AND changed_seq > %(base)s
), who AS (
    SELECT s.player_id FROM scoring_seat s JOIN dirty d ON d.sitting_id = s.sitting_id
    UNION SELECT player_id FROM tournaments_registration WHERE event_id = %(event)s AND changed_seq > %(base)s
)"""

AFFECTED = (
    CHANGED
    + """
SELECT w.player_id, p.name, r.team, r.status, (SELECT COUNT(*) FROM dirty)
FROM who w JOIN scoring_player p ON p.id = w.player_id
LEFT JOIN tournaments_registration r ON r.event_id = %(event)s AND r.player_id = w.player_id
"""
)


def _affected(event_id: int, base: int) -> dict[int, Line] | None:
    """A fresh line (figures at zero) for each player whose line may have changed since
    ``base``: the players of the canh changed since, and the registrations changed since."""
    rows = fetch(AFFECTED, {"event": event_id, "base": base})
    if rows and rows[0][4] > MAX_CANH:
        return None
    return {
        player_id: Line(
            player_id,
            name,
            (team or NO_TEAM) if status is not None else NO_TEAM,
            status == RegistrationStatus.WITHDRAWN,
        )
        for player_id, name, team, status, _dirty in rows
    }


#: Every seat at the event of the players touched since the base (the same ``who`` as
#: :data:`AFFECTED`, in the same snapshot), with its canh and its stored tally.
SEATS = (
    CHANGED
    + """
SELECT s.id, s.sitting_id, s.player_id, ts.changed_seq, ts.van, ts.van_stamp,
       CASE WHEN st.ended_at IS NULL THEN 0 ELSE 1 END, t.stamp, t.points, t.wins, t.best_win, t.cuoc
FROM scoring_seat s JOIN tournaments_tablesitting ts ON ts.sitting_id = s.sitting_id
JOIN scoring_sitting st ON st.id = s.sitting_id LEFT JOIN tournaments_seattally t ON t.seat_id = s.id
WHERE ts.event_id = %(event)s AND s.player_id IN (SELECT player_id FROM who)
"""
)


@dataclass(slots=True)
class _Seats:
    seats: list[SeatRef] = field(default_factory=list)
    #: Canh ván counts still fresh (sitting id → ván).
    van: dict[int, int] = field(default_factory=dict)
    ended: set[int] = field(default_factory=set)
    #: Stored tallies still fresh (seat id → tally).
    tallies: dict[int, Tally] = field(default_factory=dict)


def _seats(event_id: int, base: int, lines: Container[int]) -> _Seats:
    """The seats at the event of the players touched since ``base`` (``lines``: those
    :func:`_affected` found in the same snapshot), with their canh's stored ván count and their
    stored tallies where still fresh (stamped with the canh's current ``changed_seq``), in one
    query."""
    found = _Seats()
    for row in fetch(SEATS, {"event": event_id, "base": base}):
        seat_id, sitting_id, player_id, changed, count, van_stamp, is_ended, stamp = row[:8]
        if player_id not in lines:
            # Only inside a caller's READ COMMITTED transaction: a change committed after this
            # pass read ``seen``, stamped after it, which the next pass takes.
            continue
        ref = SeatRef(seat_id, sitting_id, player_id, changed)
        found.seats.append(ref)
        if van_stamp == changed:
            found.van[sitting_id] = count
        if is_ended:
            found.ended.add(sitting_id)
        if stamp == changed:
            found.tallies[seat_id] = Tally(
                seat_id, sitting_id, player_id, stamp, row[8], row[9], row[10], json.loads(row[11])
            )
    return found


#: The ván of the canh whose stored count is fresh (one row, sitting id NULL), then one row per
#: stale canh (a count never made, or made before the canh's last change).
VAN_TOTAL = """
SELECT NULL, NULL, COALESCE(SUM(van), 0) FROM tournaments_tablesitting
WHERE event_id = %(event)s AND van_stamp = changed_seq
UNION ALL
SELECT sitting_id, changed_seq, NULL FROM tournaments_tablesitting
WHERE event_id = %(event)s AND (van_stamp IS NULL OR van_stamp <> changed_seq)
"""


def _van_total(event_id: int) -> tuple[int, dict[int, int]]:
    """The ván of every canh whose stored count is fresh, and the stale canh (id → changed_seq)."""
    fresh, stale = 0, {}
    for sitting_id, changed, total in fetch(VAN_TOTAL, {"event": event_id}):
        if sitting_id is None:
            fresh = int(total)
        else:
            stale[sitting_id] = changed
    return fresh, stale


def incremental_standings(*, event_id: int) -> Plan | None:
    """The standings at the event's current ledger number, from the stored board and the
    changed canh (inside the caller's snapshot); ``None``: run the full rebuild instead."""
    base = _base(event_id)
    if base is None:
        return None
    if base.base >= base.seen:  # nothing changed: the stored board is the answer (not written again)
        return Plan(Standings(base.rows, base.teams, base.van_count, base.seen))
    lines = _affected(event_id, base.base)
    if lines is None:
        return None
    fresh_van, stale = _van_total(event_id)
    if len(stale) > MAX_CANH:
        return None
    recount = canh_van(stale, base.confirmed_only)
    found = _seats(event_id, base.base, lines) if lines else _Seats()
    found.van.update(recount)
    missing = [s for s in found.seats if s.seat_id not in found.tallies]
    if len(missing) > MAX_SEATS:
        return None
    built = build_tallies(missing, found.ended, base.confirmed_only)
    found.tallies.update(built)
    merge_lines(lines, found.seats, found.tallies, found.van)
    # The other players' stored rows, copied: the ranking below sets their rank afresh.
    rows = [dict(row) for row in base.rows if row["key"] not in lines]
    rows.extend(line_row(line) for line in lines.values())
    ranked = rank_rows(rows, base.tie_breaks)
    stale_canh = {s: (changed, recount[s]) for s, changed in stale.items()}
    standings = Standings(
        ranked, _teams(base, lines, ranked), fresh_van + sum(recount.values()), base.seen, stale_canh
    )
    text, tails = rows_json(rows=ranked, known=base.tails, skip=lines)
    return Plan(standings, list(built.values()), text, tails)


def _teams(base: _Base, lines: dict[int, Line], ranked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The teams again: those of the changed players summed afresh from their players' rows,
    the others' stored rows kept (none of their players changed)."""
    touched = {line.team for line in lines.values()} | {r["team"] for r in base.rows if r["key"] in lines}
    kept = [dict(t) for t in base.teams if t["key"] not in touched]
    fresh = [line_row(t) for t in team_lines(r for r in ranked if r["team"] in touched)]
    return rank_rows(kept + fresh, base.tie_breaks)


TALLY_UPSERT = """
INSERT INTO tournaments_seattally (seat_id, event_id, sitting_id, player_id, stamp, points, wins, best_win, cuoc)
VALUES {rows}
ON CONFLICT (seat_id) DO UPDATE SET stamp = excluded.stamp, points = excluded.points, wins = excluded.wins,
    best_win = excluded.best_win, cuoc = excluded.cuoc
WHERE tournaments_seattally.stamp < excluded.stamp
"""
TALLY_ROW = "(%s, %s, %s, %s, %s, %s, %s, %s, %s)"

#: A canh's recounted ván, stored unless a count of a later state is there already.
CANH_VAN_UPDATE = """
WITH u (sitting_id, stamp, van) AS (VALUES {rows})
UPDATE tournaments_tablesitting SET van = u.van, van_stamp = u.stamp FROM u
WHERE tournaments_tablesitting.sitting_id = u.sitting_id
  AND (tournaments_tablesitting.van_stamp IS NULL OR tournaments_tablesitting.van_stamp < u.stamp)
"""
CANH_VAN_ROW = "(CAST(%s AS BIGINT), CAST(%s AS BIGINT), CAST(%s AS INTEGER))"


def _statements(sql: str, row: str, rows: Sequence[Sequence[Any]]) -> list[tuple[str, list[Any]]]:
    """One multi-row statement per chunk of ``rows`` the database's limit of parameters allows."""
    if not rows:
        return []
    width = len(rows[0])
    return [
        (sql.format(rows=", ".join([row] * len(chunk))), [value for r in chunk for value in r])
        for chunk in id_chunks(list(rows), per=width, spare=0)
    ]


def _cache_write(statements: list[tuple[str, list[Any]]]) -> None:
    """Store rebuilt figures for later passes: one transaction of their own. They are a cache
    stamped with the state they were read at, so a write that loses a race (a deadlock between
    two workers on PostgreSQL, a busy SQLite) is dropped, never fatal: the next pass rebuilds
    what it needs."""
    if not statements:
        return
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
    except DatabaseError:  # pragma: no cover - a race between two workers
        log.warning("leaderboard cache write dropped", exc_info=True)


def _canh_rows(stale: dict[int, tuple[int, int]]) -> list[tuple[int, int, int]]:
    return [(sitting, changed, van) for sitting, (changed, van) in sorted(stale.items())]


def store_canh_van(*, stale: dict[int, tuple[int, int]]) -> None:
    """Store the recounted ván of stale canh (sitting id → (changed_seq, ván))."""
    _cache_write(_statements(CANH_VAN_UPDATE, CANH_VAN_ROW, _canh_rows(stale)))


def store_caches(*, event_id: int, plan: Plan) -> None:
    """Store the tallies and ván counts this pass rebuilt, in one transaction (tallies in seat
    order, canh in sitting order: two writers lock rows in the same order)."""
    _cache_write(
        _statements(TALLY_UPSERT, TALLY_ROW, tally_rows(plan.tallies, event_id))
        + _statements(CANH_VAN_UPDATE, CANH_VAN_ROW, _canh_rows(plan.standings.stale_canh))
    )
