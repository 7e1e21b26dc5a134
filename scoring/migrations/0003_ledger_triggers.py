"""The database itself keeps the ledger's invariants (ARCHITECTURE.md practice 6).

PostgreSQL:
* every ledger transaction's postings sum to zero, and a transaction has postings — checked at
  commit by DEFERRABLE INITIALLY DEFERRED constraint triggers;
* a reversal exactly negates the transaction it reverses, in the same sitting (at commit);
* a posting belongs to its transaction's sitting, and its seat to that sitting (at insert);
* a sitting's pool and gà pot never end a transaction below zero (at commit);
* postings and ledger transactions are never updated nor deleted (TRUNCATE, used by test
  teardown, is a different statement and stays possible for the database owner).

SQLite (the embedded default): postings and ledger transactions are never updated. DELETE is
not refused there: SQLite has no TRUNCATE, and Django's flush (test teardown) deletes rows.
"""

from django.db import migrations

PG_FORWARD = r"""
CREATE FUNCTION scoring_ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Sổ điểm chỉ được ghi thêm: không được % bảng % (hãy ghi bút toán đảo).',
    TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER scoring_posting_immutable BEFORE UPDATE OR DELETE ON scoring_posting
  FOR EACH ROW EXECUTE FUNCTION scoring_ledger_immutable();
CREATE TRIGGER scoring_ledgertransaction_immutable BEFORE UPDATE OR DELETE ON scoring_ledgertransaction
  FOR EACH ROW EXECUTE FUNCTION scoring_ledger_immutable();

CREATE FUNCTION scoring_posting_same_sitting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM scoring_ledgertransaction t
                 WHERE t.id = NEW.transaction_id AND t.sitting_id = NEW.sitting_id) THEN
    RAISE EXCEPTION 'Dòng bút toán không cùng canh bài với bút toán #%.', NEW.transaction_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF NEW.seat_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM scoring_seat s
                 WHERE s.id = NEW.seat_id AND s.sitting_id = NEW.sitting_id) THEN
    RAISE EXCEPTION 'Chỗ ngồi % không thuộc canh bài %.', NEW.seat_id, NEW.sitting_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER scoring_posting_same_sitting BEFORE INSERT ON scoring_posting
  FOR EACH ROW EXECUTE FUNCTION scoring_posting_same_sitting();

CREATE FUNCTION scoring_posting_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
  SELECT COALESCE(SUM(amount), 0) INTO total FROM scoring_posting WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'Bút toán #% không cân: tổng các dòng là % (phải bằng 0).', NEW.transaction_id, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER scoring_posting_balanced AFTER INSERT ON scoring_posting
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION scoring_posting_balanced();

CREATE FUNCTION scoring_posting_pots_nonnegative() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
  SELECT COALESCE(SUM(amount), 0) INTO total FROM scoring_posting
    WHERE sitting_id = NEW.sitting_id AND account = NEW.account;
  IF total < 0 THEN
    RAISE EXCEPTION 'Canh bài %: tài khoản % xuống dưới 0 (%).', NEW.sitting_id, NEW.account, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER scoring_posting_pots_nonnegative AFTER INSERT ON scoring_posting
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.account IN ('pool', 'ga_trong'))
  EXECUTE FUNCTION scoring_posting_pots_nonnegative();

CREATE FUNCTION scoring_transaction_complete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM scoring_posting WHERE transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'Bút toán #% không có dòng nào.', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.reverses_id IS NOT NULL THEN
    IF NOT EXISTS (SELECT 1 FROM scoring_ledgertransaction o
                   WHERE o.id = NEW.reverses_id AND o.sitting_id = NEW.sitting_id) THEN
      RAISE EXCEPTION 'Bút toán đảo #% không cùng canh bài với bút toán #%.', NEW.id, NEW.reverses_id
        USING ERRCODE = 'check_violation';
    END IF;
    IF EXISTS (
        (SELECT account, seat_id, line, -amount FROM scoring_posting WHERE transaction_id = NEW.reverses_id
         EXCEPT ALL
         SELECT account, seat_id, line, amount FROM scoring_posting WHERE transaction_id = NEW.id)
        UNION ALL
        (SELECT account, seat_id, line, amount FROM scoring_posting WHERE transaction_id = NEW.id
         EXCEPT ALL
         SELECT account, seat_id, line, -amount FROM scoring_posting WHERE transaction_id = NEW.reverses_id)
    ) THEN
      RAISE EXCEPTION 'Bút toán đảo #% không đảo đúng bút toán #%.', NEW.id, NEW.reverses_id
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER scoring_transaction_complete AFTER INSERT ON scoring_ledgertransaction
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION scoring_transaction_complete();
"""

PG_BACKWARD = r"""
DROP TRIGGER IF EXISTS scoring_transaction_complete ON scoring_ledgertransaction;
DROP TRIGGER IF EXISTS scoring_posting_pots_nonnegative ON scoring_posting;
DROP TRIGGER IF EXISTS scoring_posting_balanced ON scoring_posting;
DROP TRIGGER IF EXISTS scoring_posting_same_sitting ON scoring_posting;
DROP TRIGGER IF EXISTS scoring_ledgertransaction_immutable ON scoring_ledgertransaction;
DROP TRIGGER IF EXISTS scoring_posting_immutable ON scoring_posting;
DROP FUNCTION IF EXISTS scoring_transaction_complete();
DROP FUNCTION IF EXISTS scoring_posting_pots_nonnegative();
DROP FUNCTION IF EXISTS scoring_posting_balanced();
DROP FUNCTION IF EXISTS scoring_posting_same_sitting();
DROP FUNCTION IF EXISTS scoring_ledger_immutable();
"""

SQLITE_FORWARD = [
    """CREATE TRIGGER scoring_posting_no_update BEFORE UPDATE ON scoring_posting
       BEGIN SELECT RAISE(ABORT, 'Sổ điểm chỉ được ghi thêm: không được sửa dòng bút toán.'); END""",
    """CREATE TRIGGER scoring_ledgertransaction_no_update BEFORE UPDATE ON scoring_ledgertransaction
       BEGIN SELECT RAISE(ABORT, 'Sổ điểm chỉ được ghi thêm: không được sửa bút toán.'); END""",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_posting_no_update",
    "DROP TRIGGER IF EXISTS scoring_ledgertransaction_no_update",
]


def _run(schema_editor, statements):
    # A plain cursor: the SQL holds literal '%' (RAISE formats), which no parameter binding must touch.
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [PG_FORWARD])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_FORWARD)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        _run(schema_editor, [PG_BACKWARD])
    elif vendor == "sqlite":
        _run(schema_editor, SQLITE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0002_people_sittings_ledger")]

    operations = [migrations.RunPython(forward, backward, elidable=False)]
