"""Posting the engine's settlements to the ledger, and folding a sitting's ván through the engine.

Nothing here decides who pays whom: the engine does (:func:`settle_van`, a pure fold). This
module only turns its transfers into balanced transactions of postings, reverses transactions
for a correction, and keeps the hội rows in step with the engine's state. Callers hold the
sitting's row lock and an open transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext

from scoring.engine import (
    GA_TRONG,
    N_,
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
    make_terms,
    open_hoi,
    settle_van,
)
from scoring.i18n import LEDGER
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
from scoring.services import rows
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
    "sitting_terms",
    "snapshots_written_once",
    "sync_hoi",
    "write_planned",
]


def sitting_terms(*, sitting: Sitting) -> SittingTerms:
    """The engine's fixed context of the sitting: game, the snapshot's rule set, money mode."""
    return make_terms(sitting.game, sitting.rules.rules(), sitting.mode)


def seats_by_name(*, sitting: Sitting) -> dict[str, Seat]:
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


def current_van(*, sitting: Sitting) -> list[Van]:
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
    *,
    sitting: Sitting,
    records: Iterable[Mapping[str, Any]],
    table: SittingTerms | None = None,
    names: Sequence[str] | None = None,
) -> Fold:
    """Fold :func:`settle_van` over ``records`` (the sitting's ván, in order) from an empty state."""
    table = table or sitting_terms(sitting=sitting)
    names = names if names is not None else list(seats_by_name(sitting=sitting))
    initial = initial_state(names, table.game, table.rules, table.mode)
    state = initial
    settlements: list[VanSettlement] = []
    for record in records:
        settled = settle_next(table=table, state=state, record=record)
        settlements.append(settled)
        state = settled.state
    return Fold(table, initial, tuple(settlements))


#: What the stored snapshot was folded from: the number of the sitting's current ván (their
#: numbers run 1…n: :func:`~scoring.services.sittings.van_record` takes only the next) and the
#: newest id among all its ván rows, current or superseded. Every write that changes which ván are
#: current inserts a row (a ván, or a correction's new version), which becomes the newest id; so a
#: snapshot whose key still matches was folded from exactly the current ván. Both are read from an
#: index (``scoring_van_current_seq``, ``scoring_van_sitting_newest``), whatever the sitting's length:
#: a key listing every ván id made each ván of a 10,000-ván import read and rewrite them all.
_KEY_SQL = (
    f"SELECT (SELECT seq FROM {Van._meta.db_table} WHERE sitting_id = %s AND is_current"
    f" ORDER BY seq DESC LIMIT 1), (SELECT id FROM {Van._meta.db_table} WHERE sitting_id = %s"
    " ORDER BY id DESC LIMIT 1)"
)


def _snapshot_key(sitting: Sitting) -> tuple[int, int | None]:
    """(how many current ván, the newest ván row's id) of ``sitting``: see :data:`_KEY_SQL`."""

    def on_the_orm() -> list[tuple[int | None, int | None]]:
        van = Van.objects.filter(sitting=sitting)
        last = van.filter(is_current=True).order_by("-seq").values_list("seq", flat=True).first()
        return [(last, van.order_by("-id").values_list("id", flat=True).first())]

    [(count, newest)] = rows.values(sql=_KEY_SQL, params=[sitting.pk, sitting.pk], orm=on_the_orm)
    return count or 0, newest


#: Snapshots kept in memory, by sitting id, while :func:`snapshots_written_once` is open.
_KEPT: ContextVar[dict[int, dict[str, Any]] | None] = ContextVar("snapshots_kept", default=None)


@contextmanager
def snapshots_written_once() -> Iterator[None]:
    """Inside one transaction that records many ván (a replay, an import's chunk), keep each
    sitting's snapshot in memory and write it once, when the block ends without an error. On
    PostgreSQL every UPDATE of a row leaves a version that cannot be pruned while its transaction
    is open, and each later read or update of the row walks them all: a snapshot written per ván
    made a 6,000-ván replay quadratic (about 4 minutes; 2,000 ván, 25 s)."""
    kept: dict[int, dict[str, Any]] = {}
    token = _KEPT.set(kept)
    try:
        yield
    finally:
        _KEPT.reset(token)
    for pk, snapshot in kept.items():
        rows.update(obj=Sitting(pk=pk), state_snapshot=snapshot)


def state_after(*, sitting: Sitting, table: SittingTerms, names: Sequence[str]) -> tuple[int, SittingState]:
    """How many current ván the sitting has and the engine's state after them: from the stored
    snapshot when it was folded from exactly those ván (:data:`_KEY_SQL`), else by folding them
    again."""
    count, newest = _snapshot_key(sitting)
    kept = _KEPT.get()
    snapshot = kept.get(sitting.pk, sitting.state_snapshot) if kept is not None else sitting.state_snapshot
    if snapshot and snapshot.get("key") == [count, newest]:
        return count, SittingState.from_json(snapshot["state"])
    records = [v.record for v in sitting.van.filter(is_current=True).order_by("seq")]
    return count, fold(sitting=sitting, records=records, table=table, names=names).state


def store_state(
    *, sitting: Sitting, count: int, newest: int, state: SittingState, seats: Mapping[str, Seat]
) -> None:
    """Keep ``state`` as the snapshot after the sitting's ``count`` current ván, ``newest`` the id of
    its newest ván row (see :func:`state_after`), with the sitting's seats (see
    :func:`seats_by_name`)."""
    snapshot = {
        "key": [count, newest],
        "state": state.to_json(),
        "seats": [[s.pk, s.name, s.position, s.player_id] for s in seats.values()],
    }
    kept = _KEPT.get()
    if kept is not None:  # written when the block ends (snapshots_written_once)
        kept[sitting.pk] = snapshot
        sitting.state_snapshot = snapshot
        return
    rows.update(obj=sitting, state_snapshot=snapshot)


def settle_next(
    *, table: SittingTerms, state: SittingState, record: VanRecord | Mapping[str, Any]
) -> VanSettlement:
    """Settle one more ván after ``state`` (the engine raises a Vietnamese error if it cannot), and
    refuse it (:class:`AmountOutOfRange`) if its numbers would leave the ledger's bounds."""
    settled = settle_van(state, record, game=table.game, rules=table.rules, mode=table.mode)
    check_bounds(settled=settled)
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

    code = "amount_out_of_range"


def _beyond(what: str, value: int, bound: int, number: int) -> AmountOutOfRange:
    return AmountOutOfRange(
        N_(
            "Ván {n}: {what} là {value}, vượt giới hạn {bound} điểm của sổ; ván không được ghi. Hãy "
            "xem lại lệ làng của canh bài (điểm các cước, tiền cược, gom, gà)."
        ),
        n=number,
        what=what,
        value=f"{value:,}".replace(",", "."),
        bound=f"{bound:,}".replace(",", "."),
    )


def check_bounds(*, settled: VanSettlement) -> None:
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


def opening_count(*, table: SittingTerms, before: SittingState, settled: VanSettlement) -> int:
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
    return write_planned(planned=[planned])[0] if planned else None


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
            postings.append(  # by ids: a correction builds thousands (the transaction's id comes later)
                Posting(
                    transaction_id=None,
                    sitting_id=sitting.pk,
                    account=account,
                    seat_id=seat.pk if seat is not None else None,
                    amount=amount,
                    line=line,
                    why=transfer.why,
                )
            )
    return txn, postings


def write_planned(*, planned: Sequence[Planned]) -> list[LedgerTransaction]:
    """Write planned transactions, in their order, and their postings: one INSERT for the
    transactions and one for the postings however many there are (a correction re-posting a
    thousand later ván sends two statements, not two thousand)."""
    if not planned:
        return []
    txns = rows.insert(objs=[txn for txn, _ in planned])
    postings = []
    for txn, lines in planned:
        for posting in lines:
            posting.transaction_id = txn.pk  # now that the transaction has one
        postings.extend(lines)
    rows.insert(objs=postings)
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
        planned=plan_van(
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
    split = opening_count(table=table, before=before, settled=settled)
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
                reason=LEDGER["opening_note" if note else "opening"].format(
                    index=index, seq=van.seq, note=note
                ),
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
            reason=LEDGER["van_note" if note else "van"].format(seq=van.seq, note=note),
            transfers=settled.transfers[split:],
        )
    )
    return [p for p in planned if p is not None]


def reverse_transaction(*, txn: LedgerTransaction, reason: str, created_by: User | None) -> LedgerTransaction:
    """A new transaction that exactly negates ``txn`` (the original is never touched)."""
    reverse_transactions(txns=[txn.pk], reason=reason, created_by=created_by)
    return LedgerTransaction.objects.get(reverses_id=txn.pk)


def _ids_in(ids: Sequence[int]) -> tuple[str, list[Any]]:
    """``IN (…)`` over ``ids`` passed as one parameter (a JSON array), however many there are: SQLite
    takes at most 999 parameters in a statement, and a correction may reverse thousands."""
    if connection.vendor == "postgresql":
        return "IN (SELECT CAST(value AS bigint) FROM jsonb_array_elements_text(CAST(%s AS jsonb)))", [
            json.dumps(list(ids))
        ]
    return "IN (SELECT value FROM json_each(%s))", [json.dumps(list(ids))]


def reverse_transactions(*, txns: Sequence[int], reason: str, created_by: User | None) -> int:
    """A reversing transaction for each of the transactions ``txns`` (ids, none reversed yet),
    newest first (as a correction undoes them), and its postings (each original's negated, line by
    line): two statements however many there are, ``INSERT … SELECT`` from the originals, so
    nothing of them is read into Python. Answers how many were reversed."""
    if not txns:
        return 0
    qn = connection.ops.quote_name
    txn_table, posting_table = qn(LedgerTransaction._meta.db_table), qn(Posting._meta.db_table)
    chosen, params = _ids_in(txns)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    created_by_id = created_by.pk if created_by is not None else None
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {txn_table} (sitting_id, van_id, kind, reason, reverses_id, created_by_id, created_at) "
            f"SELECT t.sitting_id, t.van_id, %s, %s, t.id, %s, %s FROM {txn_table} t "
            f"WHERE t.id {chosen} ORDER BY t.id DESC",
            [TransactionKind.REVERSAL.value, reason, created_by_id, now, *params],
        )
        reversed_count = cursor.rowcount
        cursor.execute(
            f"INSERT INTO {posting_table} (transaction_id, sitting_id, account, seat_id, amount, line, why) "
            f"SELECT r.id, p.sitting_id, p.account, p.seat_id, -p.amount, p.line, %s || p.why "
            f"FROM {posting_table} p JOIN {txn_table} r ON r.reverses_id = p.transaction_id "
            f"WHERE p.transaction_id {chosen} ORDER BY r.id, p.id",
            [LEDGER["reversed"].format(why=""), *params],
        )
    return reversed_count


def sync_hoi(*, sitting: Sitting, state: SittingState, before: SittingState | None = None) -> None:
    """Make the sitting's hội rows match the engine's state (they are a projection, not a record).
    ``before``: the state the rows match now (one more ván): only the hội that differ are read."""
    spans = {h.index: h for h in state.hoi}
    rows = sitting.hoi.all()
    if before is not None:
        kept = set(before.hoi) & set(state.hoi)
        spans = {i: h for i, h in spans.items() if h not in kept}
        rows = rows.filter(index__in=[*spans, *(h.index for h in before.hoi if h not in kept)])
    gone, changed = [], []
    for row in rows:
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
