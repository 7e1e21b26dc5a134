"""``manage.py ledger_check`` re-derives every balance and catches a tampered ledger."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from scoring.models import Posting
from scoring.services.sittings import sitting_settle_up, van_correct
from tests.factories import new_key, open_sitting, record_all

pytestmark = pytest.mark.django_db(transaction=True)


def run_check(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    try:
        call_command("ledger_check")
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().out.strip().splitlines()


def build() -> list:
    quang = open_sitting()
    vans = record_all(quang, [{"winner": "An", "cuoc": ["tom"]}, {"winner": "An", "cuoc": ["leo"]}])
    van_correct(
        van=vans[0], record={"result": "hoa"}, reason="hòa", corrected_by=None, idempotency_key=new_key()
    )
    gom = open_sitting(mode="gom", rules={"preset": "luat-2005", "gom": 10, "ga_trong": "cong_nghiep"})
    record_all(gom, [{"winner": "Bình", "cuoc": ["chi_nay"]}, {"winner": "Chi", "cuoc": ["thap_dieu"]}])
    sitting_settle_up(sitting=gom, settled_by=None, idempotency_key=new_key())
    return [quang, gom]


def test_a_clean_ledger_has_zero_differences(capsys: pytest.CaptureFixture[str]) -> None:
    build()
    status, lines = run_check(capsys)
    assert status == 0
    assert lines == ["ledger_check: 2 canh bài, 4 ván, 9 bút toán, 0 chênh lệch."]


def test_a_balanced_posting_pair_on_the_wrong_accounts_is_caught(capsys: pytest.CaptureFixture[str]) -> None:
    quang, _ = build()
    # Bypass the services: append a balanced pair (Chi -5, Dũng +5) to ván 2's transaction. The
    # database accepts it (it sums to zero); only re-deriving the ván shows it is not theirs.
    txn = quang.transactions.filter(kind="van", reversed_by__isnull=True).order_by("-id").first()
    chi, dung = quang.seats.get(name="Chi"), quang.seats.get(name="Dũng")
    with transaction.atomic():
        Posting.objects.bulk_create(
            [
                Posting(
                    transaction=txn, sitting=quang, account="player", seat=chi, amount=-5, line=99, why="tay"
                ),
                Posting(
                    transaction=txn, sitting=quang, account="player", seat=dung, amount=5, line=99, why="tay"
                ),
            ]
        )
    status, lines = run_check(capsys)
    assert status == 1
    assert any("ván 2: các khoản chuyển trong sổ khác với tính lại" in line for line in lines)
    # After the correction ván 1 is a draw and ván 2 An's plain Lèo (10 from each): Chi -10 - 5.
    assert any("số dư trong sổ" in line and "'Chi': -15" in line for line in lines)
    assert lines[-1].endswith("2 chênh lệch.")


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite variant; PostgreSQL: test_db_invariants"
)
def test_on_sqlite_a_posting_is_not_deleted_and_one_removed_behind_the_guards_back_is_caught(
    capsys: pytest.CaptureFixture[str],
) -> None:
    build()
    posting = Posting.objects.filter(account="player").order_by("id").first()
    with pytest.raises(DatabaseError, match="chỉ được ghi thêm"), transaction.atomic():
        posting.delete()
    with connection.cursor() as cursor:  # someone with the database file drops the guard first
        cursor.execute("DROP TRIGGER scoring_posting_no_delete")
        cursor.execute("DELETE FROM scoring_posting WHERE id = %s", [posting.pk])
    status, lines = run_check(capsys)
    assert status == 1 and "không cân" in lines[0]
