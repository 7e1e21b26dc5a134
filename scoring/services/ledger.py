"""Posting the engine's settlements to the ledger, and folding a sitting's ván through the engine.

Nothing here decides who pays whom: the engine does (:func:`settle_van`, a pure fold). This
module only turns its transfers into balanced transactions of postings, reverses transactions
for a correction, and keeps the hội rows in step with the engine's state. Callers hold the
sitting's row lock and an open transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from scoring.engine import (
    GA_TRONG,
    POOL,
    Book,
    EngineError,
    InvariantError,
    SittingState,
    SittingTerms,
    Transfer,
    VanRecord,
    VanSettlement,
    initial_state,
    make_table,
    open_hoi,
    settle_van,
)
from scoring.models import (
    Account,
    Hoi,
    LedgerTransaction,
    Posting,
    Seat,
    Sitting,
    TransactionKind,
    Van,
)
from scoring.services.people import User

__all__ = [
    "MAX_BALANCE",
    "MAX_STREAK",
    "MAX_VAN_POINTS",
    "AmountOutOfRange",
    "Fold",
    "check_bounds",
    "current_van",
    "fold",
    "opening_count",
    "post_transfers",
    "plan_transfers",
    "plan_van",
    "post_van",
    "reverse_transaction",
    "reverse_transactions",
    "seats_by_name",
    "settle_next",
    "sitting_table",
    "sync_hoi",
    "write_planned",
]


def sitting_table(sitting: Sitting) -> SittingTerms:
    """The engine's fixed context of the sitting: game, the snapshot's rule set, money mode."""
    return make_table(sitting.game, sitting.rules.rules(), sitting.mode)


def seats_by_name(sitting: Sitting) -> dict[str, Seat]:
    """The sitting's seats by account name, in seat order: kept with the stored state (a sitting's
    seats never change once it is open), else read."""
    kept = (sitting.state_snapshot or {}).get("seats")
    if kept:
        fields = [f.attname for f in Seat._meta.concrete_fields]
        rows = (
            {"id": pk, "sitting_id": sitting.pk, "player_id": player, "position": position, "name": name}
            for pk, name, position, player in kept
        )
        return {
            row["name"]: Seat.from_db(sitting._state.db, fields, [row[f] for f in fields]) for row in rows
        }
    return {seat.name: seat for seat in sitting.seats.order_by("position")}


def current_van(sitting: Sitting) -> list[Van]:
    """The current version of every ván of the sitting, by sequence number."""
    return list(sitting.van.filter(is_current=True).order_by("seq"))


@dataclass(frozen=True, slots=True)
class Fold:
    """The engine's fold over a sitting's ván: the state before each ván, and each settlement."""

    table: SittingTerms
    initial: SittingState
    settlements: tuple[VanSettlement, ...]

    @property
    def state(self) -> SittingState:
        """The state after the last ván folded."""
        return self.settlements[-1].state if self.settlements else self.initial

    def state_before(self, index: int) -> SittingState:
        """The state before the ``index``-th ván folded (0-based)."""
        return self.settlements[index - 1].state if index else self.initial


def fold(
    sitting: Sitting,
    records: Iterable[Mapping[str, Any]],
    *,
    table: SittingTerms | None = None,
    names: Sequence[str] | None = None,
) -> Fold:
    """Fold :func:`settle_van` over ``records`` (the sitting's ván, in order) from an empty state."""
    table = table or sitting_table(sitting)
    names = names if names is not None else list(seats_by_name(sitting))
    initial = initial_state(names, table.game, table.rules, table.mode)
    state = initial
    settlements: list[VanSettlement] = []
    for record in records:
        settled = settle_next(table, state, record)
        settlements.append(settled)
        state = settled.state
    return Fold(table, initial, tuple(settlements))


def state_after(
    sitting: Sitting, table: SittingTerms, names: Sequence[str]
) -> tuple[list[int], SittingState]:
    """The ids of the sitting's current ván (by number) and the engine's state after them: from
    the stored snapshot when it was folded from exactly those ván, else by folding them again."""
    ids = list(sitting.van.filter(is_current=True).order_by("seq").values_list("pk", flat=True))
    snapshot = sitting.state_snapshot
    if snapshot and snapshot.get("van") == ids:
        return ids, SittingState.from_json(snapshot["state"])
    records = [v.record for v in sitting.van.filter(is_current=True).order_by("seq")]
    return ids, fold(sitting, records, table=table, names=names).state


def store_state(sitting: Sitting, ids: Sequence[int], state: SittingState, seats: Mapping[str, Seat]) -> None:
    """Keep ``state`` as the snapshot after the current ván ``ids`` (see :func:`state_after`), with
    the sitting's seats (see :func:`seats_by_name`)."""
    snapshot = {
        "van": list(ids),
        "state": state.to_json(),
        "seats": [[s.pk, s.name, s.position, s.player_id] for s in seats.values()],
    }
    Sitting.objects.filter(pk=sitting.pk).update(state_snapshot=snapshot)
    sitting.state_snapshot = snapshot


def settle_next(
    table: SittingTerms, state: SittingState, record: VanRecord | Mapping[str, Any]
) -> VanSettlement:
    """Settle one more ván after ``state`` (the engine raises a Vietnamese error if it cannot), and
    refuse it (:class:`AmountOutOfRange`) if its numbers would leave the ledger's bounds."""
    settled = settle_van(state, record, game=table.game, rules=table.rules, mode=table.mode)
    check_bounds(settled)
    return settled


# -- bounds --------------------------------------------------------------------------------------

#: The most points one ván may be worth, and the most one of its transfers may move: a ván's
#: points are stored in a 32-bit column (``Van.points``, and a leaderboard's best win), and a
#: billion points is far beyond any village's stakes.
MAX_VAN_POINTS = 10**9
#: The most any account may hold or owe after any ván: a player's balance, the village pool, the
#: gà pot. Every posting therefore moves at most this much (a ván's transfers at most
#: MAX_VAN_POINTS; settling up moves what the balances hold, back to zero). The ledger's amounts
#: are 64-bit (``Posting.amount``, migration 0010), so a sum of one account's postings in any
#: order stays below 2^63 until some 9 × 10^9 ván postings of the largest size have been written
#: to it; the engine's (Python's) numbers, the pages' JavaScript (exact below 2^53) and
#: spreadsheets (15 significant digits) all hold 10^12 exactly.
MAX_BALANCE = 10**12
#: The longest streak (``Van.streak`` is a small integer column).
MAX_STREAK = 32767


class AmountOutOfRange(EngineError):
    """A ván whose numbers would leave the ledger's bounds (HTTP 400); nothing is written."""


def _beyond(what: str, value: int, bound: int, number: int) -> AmountOutOfRange:
    return AmountOutOfRange(
        gettext(
            "Ván %(n)d: %(what)s là %(value)s, vượt giới hạn %(bound)s điểm của sổ; ván không được ghi. "
            "Hãy xem lại lệ làng của canh bài (điểm các cước, tiền cược, gom, gà)."
        )
        % {
            "n": number,
            "what": what,
            "value": f"{value:,}".replace(",", "."),
            "bound": f"{bound:,}".replace(",", "."),
        }
    )


def check_bounds(settled: VanSettlement) -> None:
    """Refuse a ván whose points, transfers or resulting balances leave the documented bounds
    (:data:`MAX_VAN_POINTS`, :data:`MAX_BALANCE`, :data:`MAX_STREAK`)."""
    n = settled.number
    if abs(settled.points) > MAX_VAN_POINTS:
        raise _beyond(gettext("số điểm của ván"), settled.points, MAX_VAN_POINTS, n)
    if settled.streak > MAX_STREAK:
        raise _beyond(gettext("số ván ù liền"), settled.streak, MAX_STREAK, n)
    for transfer in settled.transfers:
        if abs(transfer.amount) > MAX_VAN_POINTS:
            raise _beyond(
                gettext("khoản %(from)s trả %(to)s") % {"from": transfer.from_, "to": transfer.to},
                transfer.amount,
                MAX_VAN_POINTS,
                n,
            )
    state = settled.state
    accounts = [
        *zip(state.players, state.balances, strict=True),
        (gettext("điểm làng"), state.pool),
        (gettext("gà trong"), state.ga_trong),
    ]
    for name, balance in accounts:
        if abs(balance) > MAX_BALANCE:
            raise _beyond(gettext("số dư của %(name)s sau ván") % {"name": name}, balance, MAX_BALANCE, n)


def opening_count(table: SittingTerms, before: SittingState, settled: VanSettlement) -> int:
    """How many of the ván's leading transfers are the hội's opening (gom, gà đầu hội)."""
    if not settled.hoi_opened:
        return 0
    scratch = Book(before)
    open_hoi(scratch, table, before, settled.number)
    count = len(scratch.transfers)
    if tuple(scratch.transfers) != settled.transfers[:count]:
        raise InvariantError(f"opening transfers of ván {settled.number} do not lead its settlement")
    return count


def _account(name: str, seats: Mapping[str, Seat]) -> tuple[str, Seat | None]:
    if name == POOL:
        return Account.POOL, None
    if name == GA_TRONG:
        return Account.GA_TRONG, None
    seat = seats.get(name)
    if seat is None:
        raise InvariantError(f"transfer to unknown account {name!r}")
    return Account.PLAYER, seat


def post_transfers(
    *,
    sitting: Sitting,
    kind: TransactionKind,
    reason: str,
    transfers: Sequence[Transfer],
    seats: Mapping[str, Seat],
    van: Van | None = None,
    created_by: User | None = None,
) -> LedgerTransaction | None:
    """One balanced transaction: each transfer is a pair of postings (payer −, payee +).

    Nothing is written when there is nothing to move.
    """
    planned = plan_transfers(
        sitting=sitting,
        kind=kind,
        reason=reason,
        transfers=transfers,
        seats=seats,
        van=van,
        created_by=created_by,
    )
    return write_planned([planned])[0] if planned else None


#: A transaction and its postings, built and not yet written (:func:`write_planned`).
Planned = tuple[LedgerTransaction, list[Posting]]


def plan_transfers(
    *,
    sitting: Sitting,
    kind: TransactionKind,
    reason: str,
    transfers: Sequence[Transfer],
    seats: Mapping[str, Seat],
    van: Van | None = None,
    created_by: User | None = None,
) -> Planned | None:
    """What :func:`post_transfers` writes, unwritten (``None`` when nothing moves)."""
    transfers = [t for t in transfers if t.amount]
    if not transfers:
        return None
    txn = LedgerTransaction(sitting=sitting, van=van, kind=kind, reason=reason, created_by=created_by)
    postings = []
    for line, transfer in enumerate(transfers, start=1):
        for name, amount in ((transfer.from_, -transfer.amount), (transfer.to, transfer.amount)):
            account, seat = _account(name, seats)
            postings.append(
                Posting(
                    transaction=txn,
                    sitting=sitting,
                    account=account,
                    seat=seat,
                    amount=amount,
                    line=line,
                    why=transfer.why,
                )
            )
    return txn, postings


def write_planned(planned: Sequence[Planned]) -> list[LedgerTransaction]:
    """Write planned transactions, in their order, and their postings: one INSERT for the
    transactions and one for the postings however many there are (a correction re-posting a
    thousand later ván sends two statements, not two thousand)."""
    if not planned:
        return []
    txns = LedgerTransaction.objects.bulk_create([txn for txn, _ in planned])
    postings = []
    for txn, lines in planned:
        for posting in lines:
            posting.transaction = txn  # its id, now that the transaction has one
        postings.extend(lines)
    Posting.objects.bulk_create(postings)
    return txns


def post_van(
    *,
    sitting: Sitting,
    van: Van,
    settled: VanSettlement,
    before: SittingState,
    table: SittingTerms,
    seats: Mapping[str, Seat],
    created_by: User | None,
    note: str = "",
) -> list[LedgerTransaction]:
    """Post a ván's settlement: the hội's opening (gom) as its own transaction, then the ván's."""
    return write_planned(
        plan_van(
            sitting=sitting,
            van=van,
            settled=settled,
            before=before,
            table=table,
            seats=seats,
            created_by=created_by,
            note=note,
        )
    )


def plan_van(
    *,
    sitting: Sitting,
    van: Van,
    settled: VanSettlement,
    before: SittingState,
    table: SittingTerms,
    seats: Mapping[str, Seat],
    created_by: User | None,
    note: str = "",
) -> list[Planned]:
    """What :func:`post_van` writes, unwritten (a correction gathers every later ván's, then
    writes them at once)."""
    suffix = f" ({note})" if note else ""
    split = opening_count(table, before, settled)
    planned = []
    if split:
        index = settled.state.hoi[-1].index if settled.state.hoi else 1
        planned.append(
            plan_transfers(
                sitting=sitting,
                van=van,
                kind=TransactionKind.GOM,
                seats=seats,
                created_by=created_by,
                reason=f"Mở hội {index} trước ván {van.seq}{suffix}",
                transfers=settled.transfers[:split],
            )
        )
    planned.append(
        plan_transfers(
            sitting=sitting,
            van=van,
            kind=TransactionKind.VAN,
            seats=seats,
            created_by=created_by,
            reason=f"Ván {van.seq}{suffix}",
            transfers=settled.transfers[split:],
        )
    )
    return [p for p in planned if p is not None]


def reverse_transaction(*, txn: LedgerTransaction, reason: str, created_by: User | None) -> LedgerTransaction:
    """A new transaction that exactly negates ``txn`` (the original is never touched)."""
    return reverse_transactions(txns=[txn], reason=reason, created_by=created_by)[0]


def reverse_transactions(
    *, txns: Sequence[LedgerTransaction], reason: str, created_by: User | None
) -> list[LedgerTransaction]:
    """A reversing transaction for each of ``txns``, in their order: one SELECT of their postings,
    one INSERT of the reversals, one of the reversing postings."""
    lines: dict[int, list[Posting]] = {txn.pk: [] for txn in txns}
    for p in Posting.objects.filter(transaction__in=[txn.pk for txn in txns]):
        lines[p.transaction_id].append(p)
    return write_planned(
        [
            (
                LedgerTransaction(
                    sitting_id=txn.sitting_id,
                    van_id=txn.van_id,
                    kind=TransactionKind.REVERSAL,
                    reverses=txn,
                    reason=reason,
                    created_by=created_by,
                ),
                [
                    Posting(
                        sitting_id=p.sitting_id,
                        account=p.account,
                        seat_id=p.seat_id,
                        amount=-p.amount,
                        line=p.line,
                        why=f"Đảo: {p.why}",
                    )
                    for p in lines[txn.pk]
                ],
            )
            for txn in txns
        ]
    )


def sync_hoi(sitting: Sitting, state: SittingState) -> None:
    """Make the sitting's hội rows match the engine's state (they are a projection, not a record)."""
    spans = {h.index: h for h in state.hoi}
    gone, changed = [], []
    for row in sitting.hoi.all():
        span = spans.pop(row.index, None)
        if span is None:
            gone.append(row.pk)
        elif (row.opened_before_van, row.closed_after_van) != (span.opened_before_van, span.closed_after_van):
            row.opened_before_van = span.opened_before_van
            row.closed_after_van = span.closed_after_van
            changed.append(row)
    if gone:
        Hoi.objects.filter(pk__in=gone).delete()
    Hoi.objects.bulk_update(changed, ["opened_before_van", "closed_after_van"], batch_size=500)
    Hoi.objects.bulk_create(
        Hoi(
            sitting=sitting,
            index=s.index,
            opened_before_van=s.opened_before_van,
            closed_after_van=s.closed_after_van,
        )
        for s in spans.values()
    )
