"""Per-canh tallies, rebuilt from each canh's own ledger, and the lines merged from them.

A seat is one player in one canh. Its tally (points, wins, biggest win, cước) is rebuilt from
that seat's own postings and won ván, never adjusted by a delta; a canh's ván count likewise
from its own current ván. Each is stamped with the canh's :attr:`TableSitting.changed_seq` it
was read at, so a stored one is reused only while its canh has not changed since.

The incremental leaderboard (:func:`tournaments.services.leaderboard.update_leaderboard`)
rebuilds the lines of the players of the canh changed since the stored board, from their
tallies (rebuilding the stale or missing ones), and keeps every other player's stored line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.models import TransactionKind
from tournaments.selectors.standings import COUNTED, ONLY_COUNTED, Line, fetch, id_chunks, in_list

__all__ = ["SeatRef", "Tally", "build_tallies", "canh_van", "merge_lines", "tally_rows"]


@dataclass(frozen=True, slots=True)
class SeatRef:
    seat_id: int
    sitting_id: int
    player_id: int
    #: The canh's :attr:`TableSitting.changed_seq` as read in the snapshot.
    stamp: int


@dataclass(slots=True)
class Tally:
    seat_id: int
    sitting_id: int
    player_id: int
    stamp: int
    points: int = 0
    wins: int = 0
    best_win: int = 0
    cuoc: dict[str, int] = field(default_factory=dict)


#: A seat's postings are found through its canh (``scoring_posting_sitting_acct``: the postings
#: have no index of their own on the seat), and its won ván likewise (the ván's sitting index).
SEAT_POINTS = (
    "SELECT p.seat_id, CAST(SUM(p.amount) AS BIGINT) FROM scoring_posting p WHERE p.sitting_id IN {sittings} "
    "AND p.account = 'player' AND p.seat_id IN {seats} GROUP BY p.seat_id"
)
COUNTED_SEAT_POINTS = (
    "SELECT p.seat_id, CAST(SUM(p.amount) AS BIGINT) FROM scoring_posting p JOIN scoring_ledgertransaction t "
    "ON t.id = p.transaction_id JOIN scoring_van v ON v.id = t.van_id WHERE p.sitting_id IN {sittings} "
    "AND p.account = 'player' AND p.seat_id IN {seats}" + ONLY_COUNTED + " GROUP BY p.seat_id"
)
SEAT_SETTLED = (
    "SELECT p.seat_id, CAST(SUM(p.amount) AS BIGINT) FROM scoring_posting p JOIN scoring_ledgertransaction t "
    "ON t.id = p.transaction_id WHERE p.sitting_id IN {sittings} AND p.account = 'player' "
    "AND p.seat_id IN {seats} AND t.kind = %s GROUP BY p.seat_id"
)
SEAT_WINS = (
    "SELECT v.winner_id, CAST(v.cuoc AS TEXT), COUNT(*), MAX(v.points) FROM scoring_van v "
    "WHERE v.is_current AND v.sitting_id IN {sittings} AND v.winner_id IN {seats}"
)


def _by_seat(sql: str, seats: list[Tally], after: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """Rows of a query over these seats (``{seats}``) and their canh (``{sittings}``), in as many
    statements as the database's limit of parameters asks for."""
    rows: list[tuple[Any, ...]] = []
    for chunk in id_chunks(seats, per=2, spare=len(after or []) + 8):
        sittings = sorted({t.sitting_id for t in chunk})
        ids = [t.seat_id for t in chunk]
        sql_chunk = sql.format(sittings=in_list(len(sittings)), seats=in_list(len(ids)))
        rows.extend(fetch(sql_chunk, [*sittings, *ids, *(after or [])]))
    return rows


def build_tallies(
    seats: Iterable[SeatRef], ended: Iterable[int], confirmed_only: bool = False
) -> dict[int, Tally]:
    """Rebuild these seats' tallies from their own postings and won ván (3 queries, more only
    past the database's limit of parameters; each reads these seats' canh only, through the
    canh's index). ``ended``: settled canh, whose settle-up postings are not play.
    ``confirmed_only``: the postings and wins of counted ván only
    (:data:`tournaments.selectors.standings.COUNTED`)."""
    tallies = {s.seat_id: Tally(s.seat_id, s.sitting_id, s.player_id, s.stamp) for s in seats}
    if not tallies:
        return tallies
    ordered = sorted(tallies.values(), key=lambda t: t.seat_id)
    points = (
        _by_seat(COUNTED_SEAT_POINTS, ordered, COUNTED) if confirmed_only else _by_seat(SEAT_POINTS, ordered)
    )
    for seat_id, total in points:
        tallies[seat_id].points += total
    ended = set(ended)
    settled = [t for t in ordered if t.sitting_id in ended]
    if settled and not confirmed_only:  # counted ván only: settle-up postings (no ván) were never added
        for seat_id, total in _by_seat(SEAT_SETTLED, settled, [TransactionKind.SETTLEMENT.value]):
            tallies[seat_id].points -= total
    only, counted = (ONLY_COUNTED, COUNTED) if confirmed_only else ("", [])
    decoded: dict[str | None, list[str]] = {}
    for seat_id, cuoc_text, n, best in _by_seat(SEAT_WINS + only + " GROUP BY 1, 2", ordered, counted):
        tally = tallies[seat_id]
        tally.wins += n
        tally.best_win = max(tally.best_win, best or 0)
        if cuoc_text not in decoded:
            decoded[cuoc_text] = json.loads(cuoc_text) if cuoc_text else []
        for slug in decoded[cuoc_text]:
            tally.cuoc[slug] = tally.cuoc.get(slug, 0) + n
    return tallies


CANH_VAN = (
    "SELECT v.sitting_id, COUNT(*) FROM scoring_van v WHERE v.is_current AND v.sitting_id IN {sittings}"
)


def canh_van(sittings: Iterable[int], confirmed_only: bool = False) -> dict[int, int]:
    """The current ván count of each of these canh, from their own ván (``confirmed_only``: the
    counted ones)."""
    ids = sorted(sittings)
    counts = dict.fromkeys(ids, 0)
    only, counted = (ONLY_COUNTED, COUNTED) if confirmed_only else ("", [])
    for chunk in id_chunks(ids, spare=len(counted) + 8):
        counts.update(
            fetch(CANH_VAN.format(sittings=in_list(len(chunk))) + only + " GROUP BY 1", [*chunk, *counted])
        )
    return counts


def merge_lines(
    lines: dict[int, Line], seats: Iterable[SeatRef], tallies: Mapping[int, Tally], van: Mapping[int, int]
) -> None:
    """Add each seat's tally and its canh's ván count to its player's line."""
    for ref in seats:
        line = lines[ref.player_id]
        tally = tallies[ref.seat_id]
        line.points += tally.points
        line.wins += tally.wins
        line.best_win = max(line.best_win, tally.best_win)
        line.cuoc.update(tally.cuoc)
        line.van += van.get(ref.sitting_id, 0)


def tally_rows(tallies: Iterable[Tally], event_id: int) -> list[tuple[Any, ...]]:
    """Rows for the tally upsert, in seat order (writers lock rows in the same order)."""
    return [
        (
            t.seat_id,
            event_id,
            t.sitting_id,
            t.player_id,
            t.stamp,
            t.points,
            t.wins,
            t.best_win,
            json.dumps(t.cuoc, separators=(",", ":")),
        )
        for t in sorted(tallies, key=lambda t: t.seat_id)
    ]
