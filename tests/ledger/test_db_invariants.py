"""The database itself refuses a broken ledger (raw SQL, bypassing every service)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from scoring.models import LedgerTransaction, Posting, Sitting
from tests.factories import open_sitting, record_all
from tests.ledger.helpers import on_postgres

pytestmark = pytest.mark.django_db(transaction=True)

NEW_TXN = "INSERT INTO scoring_ledgertransaction (sitting_id, kind, reason, created_at) VALUES (%s, 'van', 'tay', now()) RETURNING id"
NEW_POSTING = (
    "INSERT INTO scoring_posting (transaction_id, sitting_id, account, seat_id, amount, line, why) "
    "VALUES (%s, %s, %s, %s, %s, 1, 'tay')"
)


def _sitting() -> Sitting:
    sitting = open_sitting(mode="gom", rules={"preset": "luat-2005", "gom": 10})
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    return sitting


def _write(sitting: Sitting, postings: list[tuple[str, int | None, int]]) -> None:
    """One raw transaction with these (account, seat id, amount) postings, committed."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(NEW_TXN, [sitting.pk])
        txn_id = cursor.fetchone()[0]
        for account, seat, amount in postings:
            cursor.execute(NEW_POSTING, [txn_id, sitting.pk, account, seat, amount])


def _seat(sitting: Sitting, position: int) -> int:
    return sitting.seats.get(position=position).pk


@on_postgres
def test_a_balanced_raw_transaction_is_accepted() -> None:
    sitting = _sitting()
    before = LedgerTransaction.objects.count()
    _write(sitting, [("player", _seat(sitting, 1), -5), ("player", _seat(sitting, 2), 5)])
    assert LedgerTransaction.objects.count() == before + 1


@on_postgres
@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda s: [("player", _seat(s, 1), 5)], "không cân"),
        (lambda s: [("player", _seat(s, 1), 5), ("player", _seat(s, 2), -4)], "không cân"),
        (lambda s: [], "không có dòng nào"),
        # The pool holds 42 after An's Tôm; taking 43 would leave it at -1.
        (lambda s: [("pool", None, -43), ("player", _seat(s, 3), 43)], "xuống dưới 0"),
        (lambda s: [("ga_trong", None, -1), ("player", _seat(s, 3), 1)], "xuống dưới 0"),
    ],
    ids=["one-sided", "off-by-one", "empty", "pool-below-zero", "pot-below-zero"],
)
def test_a_broken_raw_transaction_fails_at_commit(
    build: Callable[[Sitting], list[tuple[str, int | None, int]]], message: str
) -> None:
    sitting = _sitting()
    before = LedgerTransaction.objects.count()
    with pytest.raises(IntegrityError, match=message):
        _write(sitting, build(sitting))
    assert LedgerTransaction.objects.count() == before


@on_postgres
def test_the_pool_taken_below_zero_after_an_earlier_check_is_refused_at_commit() -> None:
    """The pots are summed once per commit (migration 0015), not once per posting: postings written
    after a check already ran in the same transaction are still checked."""
    sitting = _sitting()
    before = LedgerTransaction.objects.count()
    seat = _seat(sitting, 3)
    with (
        pytest.raises(IntegrityError, match="xuống dưới 0"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        for amount in (40, 3):  # the pool holds 42: 40 leaves 2 (checked at once), then 3 more
            cursor.execute(NEW_TXN, [sitting.pk])
            txn_id = cursor.fetchone()[0]
            cursor.execute(NEW_POSTING, [txn_id, sitting.pk, "pool", None, -amount])
            cursor.execute(NEW_POSTING, [txn_id, sitting.pk, "player", seat, amount])
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the deferred checks run now
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    assert LedgerTransaction.objects.count() == before


@on_postgres
def test_a_posting_on_a_seat_of_another_sitting_is_refused() -> None:
    sitting, other = _sitting(), _sitting()
    with pytest.raises(IntegrityError, match="không thuộc canh bài"):
        _write(sitting, [("player", _seat(other, 1), -5), ("player", _seat(sitting, 2), 5)])


@on_postgres
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE scoring_posting SET amount = amount + 1 WHERE id = %s",
        "UPDATE scoring_posting SET why = 'sửa tay' WHERE id = %s",
        "DELETE FROM scoring_posting WHERE id = %s",
        "UPDATE scoring_ledgertransaction SET reason = 'sửa tay' WHERE id = (SELECT transaction_id FROM scoring_posting WHERE id = %s)",
        "DELETE FROM scoring_ledgertransaction WHERE id = (SELECT transaction_id FROM scoring_posting WHERE id = %s)",
    ],
    ids=["update-amount", "update-why", "delete-posting", "update-transaction", "delete-transaction"],
)
def test_postings_and_transactions_can_be_neither_updated_nor_deleted(sql: str) -> None:
    _sitting()
    posting = Posting.objects.order_by("id").first()
    assert posting is not None
    with (
        pytest.raises(IntegrityError, match="chỉ được ghi thêm"),
        transaction.atomic(),
        connection.cursor() as cur,
    ):
        cur.execute(sql, [posting.pk])
    assert Posting.objects.get(pk=posting.pk).amount == posting.amount


@on_postgres
def test_a_reversal_that_does_not_mirror_its_original_is_refused() -> None:
    sitting = _sitting()
    original = sitting.transactions.filter(kind="van").get()
    with (
        pytest.raises(IntegrityError, match="không đảo đúng"),
        transaction.atomic(),
        connection.cursor() as cur,
    ):
        cur.execute(
            "INSERT INTO scoring_ledgertransaction (sitting_id, kind, reason, reverses_id, created_at) "
            "VALUES (%s, 'dao', 'tay', %s, now()) RETURNING id",
            [sitting.pk, original.pk],
        )
        txn_id = cur.fetchone()[0]
        # The original paid An 8 from the pool; a "reversal" moving 8 between two players instead.
        cur.execute(NEW_POSTING, [txn_id, sitting.pk, "player", _seat(sitting, 1), -8])
        cur.execute(NEW_POSTING, [txn_id, sitting.pk, "player", _seat(sitting, 2), 8])


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite variant of the guard")
def test_on_sqlite_postings_cannot_be_updated() -> None:
    _sitting()
    with pytest.raises(DatabaseError, match="chỉ được ghi thêm"), connection.cursor() as cur:
        cur.execute("UPDATE scoring_posting SET amount = amount + 1")
