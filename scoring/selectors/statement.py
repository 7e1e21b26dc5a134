"""A member's statement (sao kê) in the club book for a period: each canh they sat in, each ván
(what they won or paid, to or from whom, and why: the ván in words), each settle-up (the canh's
own, a period close, a close's correction), with running totals. Read from the ledger: a ván's
line is its postings as they stand (a corrected ván shows its current version, and says so).

Five queries whatever the number of canh: the period's canh and seats, the canh's rule sets,
their current ván, their transactions, and the postings of the transactions that touch the member.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.http import Http404
from django.utils import timezone

from scoring.engine import GA_TRONG, POOL
from scoring.models import Account, Club, LedgerTransaction, Player, Posting, Sitting, TransactionKind, Van
from scoring.periods import Period
from scoring.selectors.book import Canh, canh_of
from scoring.selectors.sitting import SittingFacts, describe, signed

__all__ = ["Statement", "member_player", "statement"]

PLAY_KINDS = (TransactionKind.GOM, TransactionKind.VAN)


@dataclass
class Line:
    amount: int
    other: str
    why: str


@dataclass
class VanLine:
    seq: int
    summary: str
    outcome: str
    delta: int
    running: int
    lines: list[Line]
    corrected: str = ""

    @property
    def shown(self) -> str:
        return signed(self.delta)


@dataclass
class SettleLine:
    at: datetime
    reason: str
    delta: int
    running: int
    lines: list[Line]
    reversal: bool = False

    @property
    def shown(self) -> str:
        return signed(self.delta)


@dataclass
class CanhPart:
    canh: Canh
    seat: str
    position: int
    game: str
    van: list[VanLine] = field(default_factory=list)
    settled: list[SettleLine] = field(default_factory=list)

    @property
    def play(self) -> int:
        return sum(v.delta for v in self.van)

    @property
    def settlement(self) -> int:
        return sum(s.delta for s in self.settled)

    @property
    def open(self) -> int:
        return self.play + self.settlement


@dataclass
class Statement:
    club: Club
    period: Period
    player: Player
    canh: list[CanhPart]
    printed_at: datetime

    @property
    def points(self) -> int:
        return sum(c.play for c in self.canh)

    @property
    def settled(self) -> int:
        """What settling up cleared (the book's "settled": the settlements' postings, negated)."""
        return -sum(c.settlement for c in self.canh)

    @property
    def open(self) -> int:
        return self.points - self.settled

    @property
    def van(self) -> int:
        return sum(len(c.van) for c in self.canh)


def _name(table: SittingFacts, account: str, seat_name: str | None) -> str:
    return seat_name if account == Account.PLAYER and seat_name else table.account(account)


class _Ledger:
    """What the statement reads of the ledger, loaded once for every canh."""

    def __init__(self, canh_ids: list[int], seats: list[int]) -> None:
        self.txns = {
            row[0]: row
            for row in LedgerTransaction.objects.filter(sitting_id__in=canh_ids).values_list(
                "id", "sitting_id", "van_id", "kind", "reason", "reverses_id", "created_at"
            )
        }
        reversed_ids = {row[5] for row in self.txns.values() if row[5]}
        touching = Posting.objects.filter(seat_id__in=seats).values("transaction_id")
        self.postings: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        for txn, *rest in (
            Posting.objects.filter(transaction_id__in=touching)
            .order_by("transaction_id", "line", "amount")
            .values_list("transaction_id", "line", "account", "seat_id", "seat__name", "amount", "why")
        ):
            self.postings[txn].append(tuple(rest))
        #: ván id → its transactions as they stand; canh id → settlements and their reversals.
        self.play: dict[int, list[int]] = defaultdict(list)
        self.settle: dict[int, list[int]] = defaultdict(list)
        for pk, sitting_id, van_id, kind, _reason, _rev, _at in sorted(self.txns.values()):
            if van_id is not None and kind in PLAY_KINDS and pk not in reversed_ids:
                self.play[van_id].append(pk)
            elif van_id is None:
                self.settle[sitting_id].append(pk)

    def lines(self, txn: int, table: SittingFacts, seat: int) -> list[Line]:
        """The member's postings of ``txn``, each with the other side of its transfer."""
        rows = self.postings.get(txn, [])
        out = []
        for line, _account, seat_id, _name, amount, why in rows:
            if seat_id == seat:
                other = next((_name_of(table, r) for r in rows if r[0] == line and r[2] != seat), "")
                out.append(Line(amount, other, why))
        return out


def statement(club: Club, period: Period, player: Player) -> Statement:
    """The member's statement: every canh of ``period`` they sat in, oldest first."""
    mine: dict[int, tuple[int, str, int]] = {}
    canh = []
    for c in canh_of(club, period):
        for position, (seat, who, name) in enumerate(c.seats, start=1):
            if who == player.pk:
                mine[c.id] = (seat, name, position)
                canh.append(c)
    tables = {
        pk: SittingFacts.of(s)
        for pk, s in Sitting.objects.select_related("rules").in_bulk(list(mine)).items()
    }
    ledger = _Ledger(list(mine), [seat for seat, _name, _pos in mine.values()])
    by_canh: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in (
        Van.objects.filter(sitting_id__in=list(mine), is_current=True)
        .order_by("sitting_id", "seq")
        .values_list("id", "sitting_id", "seq", "record", "outcome", "replaces_id", "correction_reason")
    ):
        by_canh[row[1]].append(row)
    outcome_names = dict(Van._meta.get_field("outcome").choices)
    running = 0
    parts = []
    for c in canh:
        seat, name, position = mine[c.id]
        table = tables[c.id]
        part = CanhPart(c, name, position, table.game.name_vi)
        for van_id, _sitting, seq, record, outcome, replaces, reason in by_canh.get(c.id, []):
            lines = [line for txn in ledger.play.get(van_id, []) for line in ledger.lines(txn, table, seat)]
            delta = sum(line.amount for line in lines)
            running += delta
            part.van.append(
                VanLine(
                    seq,
                    describe(table, record or {}),
                    str(outcome_names.get(outcome, outcome)),
                    delta,
                    running,
                    lines,
                    reason if replaces else "",
                )
            )
        for txn in ledger.settle.get(c.id, []):
            lines = ledger.lines(txn, table, seat)
            if lines:
                delta = sum(line.amount for line in lines)
                running += delta
                _pk, _s, _v, kind, reason, _rev, at = ledger.txns[txn]
                part.settled.append(
                    SettleLine(at, reason, delta, running, lines, kind == TransactionKind.REVERSAL)
                )
        parts.append(part)
    return Statement(club, period, player, parts, timezone.now())


def _name_of(table: SittingFacts, row: tuple[Any, ...]) -> str:
    _line, account, _seat, seat_name, _amount, _why = row
    if account == Account.PLAYER:
        return seat_name or ""
    return table.account(
        POOL if account == Account.POOL else GA_TRONG if account == Account.GA_TRONG else account
    )


def member_player(club: Club, player_id: int) -> Player:
    """A player of the club's book: of the club, or seated in one of its canh (404 otherwise)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None or not (
        player.club_id == club.pk or Sitting.objects.filter(club=club, seats__player=player).exists()
    ):
        raise Http404(f"Không có người chơi số {player_id} trong sổ của '{club.name}'.")
    return player
