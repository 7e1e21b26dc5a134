"""PostgreSQL: a sitting's pool and gà pot are checked once per commit, not once per posting.

``scoring_posting_pots_nonnegative`` (migration 0003) is a deferred constraint trigger: at commit
it ran once for every pool or gà posting the transaction inserted, and each run summed every
posting of that account of the sitting. A correction early in a long sitting re-posts thousands
of such postings, so the commit summed the sitting's account thousands of times (quadratic: 10 s
and more for ván 1 of 1,000; issue 24 item 3).

The check is the same: at commit (or at ``SET CONSTRAINTS … IMMEDIATE``) the sum of a sitting's
pool postings, and of its gà postings, must not be below zero. It now runs once for each
(sitting, account) among the deferred events that fire together: the first event of a pair sums
the account as the transaction leaves it and notes the pair in a transaction-local setting
(``sotom.pots_checked``); later events of the pair in the same firing find it noted. Every INSERT
statement into ``scoring_posting`` clears the notes first (a statement-level trigger), so
postings written after a check (``SET CONSTRAINTS … IMMEDIATE`` mid-transaction) are checked again
at commit; a rolled-back savepoint rolls the notes back with its rows.
"""

from django.db import migrations

PG_FORWARD = r"""
CREATE OR REPLACE FUNCTION scoring_posting_pots_nonnegative() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  tag text := ' ' || NEW.sitting_id || '/' || NEW.account || ' ';
  checked text := COALESCE(current_setting('sotom.pots_checked', true), '');
BEGIN
  IF position(tag IN checked) > 0 THEN
    RETURN NULL;  -- summed already in this firing, with this posting in the sum
  END IF;
  SELECT COALESCE(SUM(amount), 0) INTO total FROM scoring_posting
    WHERE sitting_id = NEW.sitting_id AND account = NEW.account;
  IF total < 0 THEN
    RAISE EXCEPTION 'Canh bài %: tài khoản % xuống dưới 0 (%).', NEW.sitting_id, NEW.account, total
      USING ERRCODE = 'check_violation';
  END IF;
  PERFORM set_config('sotom.pots_checked', rtrim(checked) || tag, true);
  RETURN NULL;
END $$;

CREATE FUNCTION scoring_posting_pots_unchecked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('sotom.pots_checked', '', true);
  RETURN NULL;
END $$;

CREATE TRIGGER scoring_posting_pots_unchecked BEFORE INSERT ON scoring_posting
  FOR EACH STATEMENT EXECUTE FUNCTION scoring_posting_pots_unchecked();
"""

PG_BACKWARD = r"""
DROP TRIGGER IF EXISTS scoring_posting_pots_unchecked ON scoring_posting;
DROP FUNCTION IF EXISTS scoring_posting_pots_unchecked();
CREATE OR REPLACE FUNCTION scoring_posting_pots_nonnegative() RETURNS trigger LANGUAGE plpgsql AS $$
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
"""


def _run(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return  # SQLite has no such trigger (the services and ``ledger_check`` hold it there)
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("scoring", "0014_club_book_treasurer_closes_ratings")]

    operations = [migrations.RunPython(_run(PG_FORWARD), _run(PG_BACKWARD), elidable=False)]
