"""The club book (sổ câu lạc bộ): every member's running points across the club's canh in a period,
read from the ledger each time (never kept apart from it, so a correction in a past canh moves it).

A canh belongs to the period of the day it was opened. For each member (every player seated in the
period's canh) the book gives:

* ``points``: the points of play (gom, ván and their corrections: the postings of transactions tied
  to a ván), summed over the period's canh: the sum of the member's canh play balances;
* ``settled``: what settling up moved (a canh's own settle-up, a period close, and any reversal of
  a close): the postings tied to no ván, negated; ``open`` = points − settled, the member's balance
  in the ledger that is still to be settled (a canh's balance after every posting, summed);
* ``van`` (ván of the canh the member sat in), ``wins`` (valid ù), ``sittings`` (canh), the biggest
  win (the points of their biggest winning hand, as the event leaderboards' "ván ù lớn nhất"),
  points per ván, and the running points after each canh (the sparkline).

Four statements read the ledger: the players' postings summed by seat; the settlements
among them and the pots (few rows); the ván by canh, winner and outcome; plus the
period's canh and their seats, the ratings and the closes. Portable SQL (PostgreSQL and SQLite
alike), measured against the plainest sum of the same postings by ``bench/club_book.py``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import connection
from django.utils import timezone

from scoring.engine import GA_TRONG, POOL, Transfer, settle_up
from scoring.models import (
    Club,
    ClubRating,
    PeriodClose,
    PeriodCloseEntry,
    Player,
    Sitting,
    VanOutcome,
)
from scoring.periods import Period, shown_label
from scoring.text import canh_name

__all__ = [
    "Book",
    "Canh",
    "CloseView",
    "Member",
    "book",
    "canh_of",
    "closes_in",
    "open_plan",
    "season_series",
]


@dataclass
class Canh:
    """A canh of the period, as the book needs it."""

    id: int
    title: str
    day: date
    opened_at: Any
    ended: bool
    #: (seat id, player id, seat name), in seat order.
    seats: list[tuple[int, int, str]] = field(default_factory=list)
    van: int = 0
    #: Each seat's balance after every posting, and the pots (pool, gà) left in the canh.
    open: dict[int, int] = field(default_factory=dict)
    pool: int = 0
    ga_trong: int = 0

    @property
    def name(self) -> str:
        return canh_name(self.title, self.opened_at)

    def pot_returns(self) -> list[Transfer]:
        """What ending this canh gives back from its pool and gà pot (as a canh's settle-up does)."""
        from scoring.services.sittings import pot_returns  # the one rule for it

        return pot_returns(
            players=[name for _seat, _player, name in self.seats], pool=self.pool, pot=self.ga_trong
        )

    def open_after_returns(self) -> dict[int, int]:
        """Each seat's open balance once the pots are returned (zero-sum: what a close clears)."""
        after = dict(self.open)
        by_name = {name: seat for seat, _player, name in self.seats}
        for t in self.pot_returns() if not self.ended else []:
            after[by_name[t.to]] = after.get(by_name[t.to], 0) + t.amount
        return after


@dataclass
class Member:
    player_id: int
    name: str
    user_id: int | None = None
    points: int = 0
    settled: int = 0
    van: int = 0
    wins: int = 0
    sittings: int = 0
    biggest: int | None = None
    #: (canh id, day, running points after the canh), in canh order.
    series: list[tuple[int, date, int]] = field(default_factory=list)
    rating: ClubRating | None = None

    @property
    def open(self) -> int:
        return self.points - self.settled

    @property
    def per_van(self) -> float | None:
        return round(self.points / self.van, 2) if self.van else None


@dataclass
class CloseView:
    close: PeriodClose
    reversed: bool
    reversed_at: Any = None
    reversal_reason: str = ""

    @property
    def label(self) -> str:
        """The close's period label in the reader's language (stored in Vietnamese)."""
        return shown_label(self.close.date_from, self.close.date_to, self.close.label)


@dataclass
class Book:
    club: Club
    period: Period
    members: list[Member]
    canh: list[Canh]
    #: The fewest transfers that would settle every open balance of the period (a close's plan).
    plan: list[tuple[Member, Member, int]]
    closes: list[CloseView]

    @property
    def van(self) -> int:
        return sum(c.van for c in self.canh)

    @property
    def open_canh(self) -> list[Canh]:
        """Canh of the period still being played (not ended): a close ends them."""
        return [c for c in self.canh if not c.ended]

    def member(self, player_id: int) -> Member | None:
        return next((m for m in self.members if m.player_id == player_id), None)

    def only(self, player_ids: Iterable[int]) -> Book:
        """The book as a member sees it: their own rows, and the transfers they are part of."""
        keep = set(player_ids)
        return Book(
            self.club,
            self.period,
            [m for m in self.members if m.player_id in keep],
            self.canh,
            [t for t in self.plan if t[0].player_id in keep or t[1].player_id in keep],
            self.closes,
        )


def _adapt(value: Any) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


#: The period's canh with their seats, in canh order then seat order (one statement).
CANH = """
SELECT c.id, c.title, c.created_at, c.ended_at IS NOT NULL, s.id, s.player_id, s.name
FROM scoring_sitting c LEFT JOIN scoring_seat s ON s.sitting_id = c.id
WHERE c.club_id = %s AND c.created_at >= %s AND c.created_at < %s
ORDER BY c.created_at, c.id, s.position
"""


def canh_of(club: Club, period: Period) -> list[Canh]:
    """The club's canh opened in the period, oldest first, with their seats. 1 query."""
    field = Sitting._meta.get_field("created_at")
    convert = [*connection.ops.get_db_converters(field.get_col("c")), *field.get_db_converters(connection)]
    canh: dict[int, Canh] = {}
    for pk, title, at, ended, seat, player, name in _fetch(CANH, club, period):
        c = canh.get(pk)
        if c is None:
            for fn in convert:
                at = fn(at, field.get_col("c"), connection)
            c = canh[pk] = Canh(pk, title, timezone.localtime(at).date(), at, bool(ended))
        if seat is not None:
            c.seats.append((seat, player, name))
    return list(canh.values())


#: The players' postings of the period's canh, by seat (a seat is one player in one canh): the plainest
#: sum of them (the posting names its seat: no join to the seats, which the canh query has read).
POSTINGS = """
SELECT p.seat_id, SUM(p.amount)
FROM scoring_posting p JOIN scoring_sitting c ON c.id = p.sitting_id
WHERE c.club_id = %s AND c.created_at >= %s AND c.created_at < %s AND p.account = 'player'
GROUP BY p.seat_id
"""
#: What the pool and the gà pot of each canh hold (gom canh and gà only: few postings). CROSS JOIN
#: makes SQLite start from the canh and look each one's pots up in the (canh, account) index (left
#: to itself it scans the whole index); PostgreSQL plans it as the inner join it is.
POTS = """
SELECT p.sitting_id, p.account, SUM(p.amount)
FROM scoring_sitting c CROSS JOIN scoring_posting p
WHERE p.sitting_id = c.id AND c.club_id = %s AND c.created_at >= %s AND c.created_at < %s
  AND p.account IN ('pool', 'ga_trong')
GROUP BY p.sitting_id, p.account
"""
#: The settlements among them (transactions tied to no ván: settle-ups, closes, their reversals): few.
SETTLED = """
SELECT p.seat_id, SUM(p.amount)
FROM scoring_ledgertransaction t JOIN scoring_sitting c ON c.id = t.sitting_id
JOIN scoring_posting p ON p.transaction_id = t.id
WHERE c.club_id = %s AND c.created_at >= %s AND c.created_at < %s AND t.van_id IS NULL AND p.account = 'player'
GROUP BY p.seat_id
"""
#: The current ván of the period's canh, by canh, winner and outcome, with the biggest win (the
#: points of the winning hand, as the event leaderboards' "ván ù lớn nhất").
VAN = """
SELECT v.sitting_id, v.winner_id, v.outcome, COUNT(*), MAX(v.points)
FROM scoring_van v JOIN scoring_sitting c ON c.id = v.sitting_id
WHERE c.club_id = %s AND c.created_at >= %s AND c.created_at < %s AND v.is_current
GROUP BY v.sitting_id, v.winner_id, v.outcome
"""


def _fetch(sql: str, club: Club, period: Period) -> list[tuple[Any, ...]]:
    """The rows of ``sql``; sums as ``int`` (PostgreSQL's SUM of a 64-bit column is ``numeric``, which
    psycopg reads as ``Decimal``; SQLite's is an integer)."""
    start, end = period.bounds()
    with connection.cursor() as cursor:
        cursor.execute(sql, [club.pk, _adapt(start), _adapt(end)])
        return [tuple(int(v) if isinstance(v, Decimal) else v for v in row) for row in cursor.fetchall()]


def _postings(
    club: Club, period: Period, canh: dict[int, Canh], seat_player: dict[int, int], members: dict[int, Member]
) -> dict[tuple[int, int], int]:
    """Points, settlements and open balances from the postings, the canh's pots; answers each
    member's points per canh."""
    seat_canh = {seat: c.id for c in canh.values() for seat, _player, _name in c.seats}
    settled = dict(_fetch(SETTLED, club, period))
    play: dict[tuple[int, int], int] = {}  # (canh, player) → points
    for seat_id, total in _fetch(POSTINGS, club, period):
        sitting_id = seat_canh[seat_id]
        cleared = settled.get(seat_id, 0)
        player = seat_player[seat_id]
        m = members[player]
        m.points += total - cleared
        m.settled -= cleared
        play[(sitting_id, player)] = play.get((sitting_id, player), 0) + total - cleared
        canh[sitting_id].open[seat_id] = total
    for sitting_id, account, total in _fetch(POTS, club, period):
        if account == POOL:
            canh[sitting_id].pool = total
        elif account == GA_TRONG:
            canh[sitting_id].ga_trong = total
    return play


def book(club: Club, period: Period, *, with_ratings: bool = True, with_closes: bool = True) -> Book:
    """The club's book for ``period`` (every member; :meth:`Book.only` narrows it to some)."""
    canh = canh_of(club, period)
    by_id = {c.id: c for c in canh}
    seat_player: dict[int, int] = {}
    members: dict[int, Member] = {}
    for c in canh:
        for seat, player, name in c.seats:
            seat_player[seat] = player
            members.setdefault(player, Member(player, name))
    play = _postings(club, period, by_id, seat_player, members) if canh else {}
    for sitting_id, winner_id, outcome, count, best in _fetch(VAN, club, period) if canh else ():
        by_id[sitting_id].van += count
        if winner_id is not None and outcome == VanOutcome.U:
            m = members[seat_player[winner_id]]
            m.wins += count
            if best and (m.biggest is None or best > m.biggest):
                m.biggest = best
    running: dict[int, int] = defaultdict(int)
    for c in canh:
        for _seat, player, _name in c.seats:
            m = members[player]
            m.van += c.van
            m.sittings += 1
            running[player] += play.get((c.id, player), 0)
            m.series.append((c.id, c.day, running[player]))
    if members:
        for pk, name, user_id in Player.objects.filter(pk__in=list(members)).values_list(
            "id", "name", "user_id"
        ):
            members[pk].name, members[pk].user_id = name, user_id
    if with_ratings:
        for rating in ClubRating.objects.filter(club=club, player_id__in=list(members)).defer("history"):
            members[rating.player_id].rating = rating
    rows = sorted(members.values(), key=lambda m: (-m.points, m.name, m.player_id))
    return Book(
        club, period, rows, canh, open_plan(canh, members), closes_in(club, period) if with_closes else []
    )


def member_open(canh: Sequence[Canh]) -> dict[int, int]:
    """Each member's open balance over ``canh``, the pots of canh still running given back."""
    out: dict[int, int] = defaultdict(int)
    for c in canh:
        seat_player = {seat: player for seat, player, _name in c.seats}
        for seat, amount in c.open_after_returns().items():
            out[seat_player[seat]] += amount
    return {player: amount for player, amount in out.items() if amount}


def open_plan(canh: Sequence[Canh], members: Mapping[int, Member]) -> list[tuple[Member, Member, int]]:
    """The fewest transfers (debtor, creditor, amount) that settle every open balance of ``canh``
    (the engine's settle-up over the members' sums; at most n − 1 transfers)."""
    balances = member_open(canh)
    plan = settle_up({str(player): amount for player, amount in balances.items()})
    return [(members[int(t.from_)], members[int(t.to)], t.amount) for t in plan]


def closes_in(club: Club, period: Period) -> list[CloseView]:
    """The closes of periods that overlap ``period``, newest first, each with its correction if any."""
    closes = list(
        PeriodClose.objects.filter(club=club, date_from__lte=period.end, date_to__gte=period.start)
        .select_related("created_by")
        .order_by("-created_at", "-id")
    )
    reversals = (
        PeriodCloseEntry.objects.filter(close__in=closes, reversal=True)
        .select_related("transaction")
        .order_by("id")
    )
    undone: dict[int, Any] = {}
    for entry in reversals:
        undone.setdefault(entry.close_id, entry.transaction)
    views = []
    for close in closes:
        txn = undone.get(close.pk)
        reason = txn.reason.split(": ", 1)[1] if txn is not None and ": " in txn.reason else ""
        views.append(CloseView(close, txn is not None, txn.created_at if txn else None, reason))
    return views


def season_series(the_book: Book, players: Sequence[int]) -> dict[str, Any]:
    """The chart of the season: each chosen member's running points after every day with a canh
    (Chart.js line datasets, as the sitting and event charts take them)."""
    days = sorted({c.day for c in the_book.canh})
    labels = [d.strftime("%d/%m") for d in days]
    datasets = []
    for pk in players:
        m = the_book.member(pk)
        if m is None:
            continue
        by_day = {day: value for _c, day, value in m.series}
        data, last = [], 0
        for d in days:
            last = by_day.get(d, last)
            data.append(last)
        datasets.append({"label": m.name, "player": pk, "data": [0, *data]})
    return {
        "title": f"{the_book.club.name} · {the_book.period.label}",
        "labels": ["", *labels],
        "datasets": datasets,
    }
