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
from tournaments.selectors.standings import (
    COUNTED,
    COUNTED_VAN_PER_SITTING,
    ONLY_COUNTED,
    VAN_PER_SITTING,
    Line,
    fetch,
)

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


COUNTED_SEAT_POINTS = (
    "SELECT p.seat_id, SUM(p.amount)::bigint FROM scoring_posting p JOIN scoring_ledgertransaction t "
    "ON t.id = p.transaction_id JOIN scoring_van v ON v.id = t.van_id WHERE p.seat_id = ANY(%s::bigint[]) "
    "AND p.account = 'player' AND v.status = ANY(%s::text[]) GROUP BY p.seat_id"
)


def build_tallies(seats: Iterable[SeatRef], ended: Iterable[int], confirmed_only: bool = False) -> dict[int, Tally]:
    """Rebuild these seats' tallies from their own postings and won ván (3 queries; the index
    on each posting's and each ván's seat makes it proportional to these seats' ledger only).
    ``ended``: settled canh, whose settle-up postings are not play. ``confirmed_only``: the
    postings and wins of counted ván only (:data:`tournaments.selectors.standings.COUNTED`)."""
    tallies = {s.seat_id: Tally(s.seat_id, s.sitting_id, s.player_id, s.stamp) for s in seats}
    if not tallies:
        return tallies
    ids = list(tallies)
    for seat_id, total in (fetch(COUNTED_SEAT_POINTS, [ids, COUNTED]) if confirmed_only else fetch(
        "SELECT seat_id, SUM(amount)::bigint FROM scoring_posting WHERE seat_id = ANY(%s::bigint[]) AND account = 'player' "
        "GROUP BY seat_id", [ids],
    )):
        tallies[seat_id].points += total
    settled = [t.seat_id for t in tallies.values() if t.sitting_id in set(ended)]
    if settled and not confirmed_only:  # counted ván only: settle-up postings (no ván) were never added
        for seat_id, total in fetch(
            "SELECT p.seat_id, SUM(p.amount)::bigint FROM scoring_posting p JOIN scoring_ledgertransaction t "
            "ON t.id = p.transaction_id WHERE p.seat_id = ANY(%s::bigint[]) AND p.account = 'player' AND t.kind = %s "
            "GROUP BY p.seat_id", [settled, TransactionKind.SETTLEMENT.value],
        ):
            tallies[seat_id].points -= total
    decoded: dict[str | None, list[str]] = {}
    for seat_id, cuoc_text, n, best in fetch(
        "SELECT v.winner_id, v.cuoc::text, COUNT(*), MAX(v.points) FROM scoring_van v "
        "WHERE v.is_current AND v.winner_id = ANY(%s::bigint[])" + (ONLY_COUNTED if confirmed_only else "")
        + " GROUP BY 1, 2", [ids, COUNTED] if confirmed_only else [ids],
    ):
        tally = tallies[seat_id]
        tally.wins += n
        tally.best_win = max(tally.best_win, best or 0)
        if cuoc_text not in decoded:
            decoded[cuoc_text] = json.loads(cuoc_text) if cuoc_text else []
        for slug in decoded[cuoc_text]:
            tally.cuoc[slug] = tally.cuoc.get(slug, 0) + n
    return tallies


def canh_van(sittings: Iterable[int], confirmed_only: bool = False) -> dict[int, int]:
    """The current ván count of each of these canh, from their own ván (``confirmed_only``: the
    counted ones)."""
    ids = list(sittings)
    counts = dict.fromkeys(ids, 0)
    if ids:
        counts.update(fetch(COUNTED_VAN_PER_SITTING, [ids, COUNTED]) if confirmed_only
                      else fetch(VAN_PER_SITTING, [ids]))
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
        (t.seat_id, event_id, t.sitting_id, t.player_id, t.stamp, t.points, t.wins, t.best_win,
         json.dumps(t.cuoc, separators=(",", ":")))
        for t in sorted(tallies, key=lambda t: t.seat_id)
    ]
