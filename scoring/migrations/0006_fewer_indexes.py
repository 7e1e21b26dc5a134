"""Fewer indexes on the ván path (docs/reliability.md, "Load").

Every index costs each ván's inserts, and each new database connection's first use of the table
(PostgreSQL builds every index's cache entry then). Dropped, in the database only:

* ``scoring_posting.sitting_id``: ``scoring_posting_sitting_acct`` (sitting, account) starts with it;
* the foreign key indexes on ``scoring_van.winner_id``, ``entered_by_id``, ``confirmed_by_id``,
  ``scoring_ledgertransaction.created_by_id`` and ``scoring_posting.seat_id``: no query looks rows
  up by them (deleting a user or a seat, which PROTECT all but forbids, scans instead);
* the idempotency key's second (``LIKE``) index on PostgreSQL: the key's uniqueness becomes a named
  constraint (one index).

The state changes are Django's; the database changes are written here because on SQLite Django
would rebuild these tables, and a rebuilt table loses the ledger's append-only triggers
(``0003_ledger_triggers``).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


INDEXES = [
    ("scoring_posting", "scoring_posting_sitting_id_452e2126", "sitting_id"),
    ("scoring_posting", "scoring_posting_seat_id_dd7eff43", "seat_id"),
    ("scoring_van", "scoring_van_winner_id_7ae1535b", "winner_id"),
    ("scoring_van", "scoring_van_entered_by_id_673ba49f", "entered_by_id"),
    ("scoring_van", "scoring_van_confirmed_by_id_e7380244", "confirmed_by_id"),
    ("scoring_ledgertransaction", "scoring_ledgertransaction_created_by_id_6f5177a1", "created_by_id"),
]


def forward(apps, schema_editor):
    run = schema_editor.execute
    for _table, name, _column in INDEXES:
        run(f'DROP INDEX IF EXISTS "{name}"')
    if schema_editor.connection.vendor == "postgresql":
        run('ALTER TABLE "scoring_idempotencykey" DROP CONSTRAINT IF EXISTS "scoring_idempotencykey_key_key"')
        run('DROP INDEX IF EXISTS "scoring_idempotencykey_key_533d06d0_like"')
        run('ALTER TABLE "scoring_idempotencykey" ADD CONSTRAINT "scoring_idempotencykey_key_unique" UNIQUE ("key")')
    else:  # SQLite: the column's own UNIQUE stays (no LIKE index there); the constraint's name exists too
        run('CREATE UNIQUE INDEX "scoring_idempotencykey_key_unique" ON "scoring_idempotencykey" ("key")')


def backward(apps, schema_editor):
    run = schema_editor.execute
    for table, name, column in INDEXES:
        run(f'CREATE INDEX "{name}" ON "{table}" ("{column}")')
    if schema_editor.connection.vendor == "postgresql":
        run('ALTER TABLE "scoring_idempotencykey" DROP CONSTRAINT "scoring_idempotencykey_key_unique"')
        run('ALTER TABLE "scoring_idempotencykey" ADD CONSTRAINT "scoring_idempotencykey_key_key" UNIQUE ("key")')
        run('CREATE INDEX "scoring_idempotencykey_key_533d06d0_like" ON "scoring_idempotencykey" '
            '("key" varchar_pattern_ops)')
    else:
        run('DROP INDEX "scoring_idempotencykey_key_unique"')


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0005_sitting_state_snapshot'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(forward, backward, elidable=False)],
            state_operations=[
                migrations.AlterField(
                    model_name='idempotencykey',
                    name='key',
                    field=models.CharField(max_length=255, verbose_name='khóa'),
                ),
                migrations.AlterField(
                    model_name='ledgertransaction',
                    name='created_by',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='người ghi'),
                ),
                migrations.AlterField(
                    model_name='posting',
                    name='seat',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='scoring.seat'),
                ),
                migrations.AlterField(
                    model_name='posting',
                    name='sitting',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='postings', to='scoring.sitting'),
                ),
                migrations.AlterField(
                    model_name='van',
                    name='confirmed_by',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='người xác nhận'),
                ),
                migrations.AlterField(
                    model_name='van',
                    name='entered_by',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='người ghi'),
                ),
                migrations.AlterField(
                    model_name='van',
                    name='winner',
                    field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scoring.seat', verbose_name='người ù'),
                ),
                migrations.AddConstraint(
                    model_name='idempotencykey',
                    constraint=models.UniqueConstraint(fields=('key',), name='scoring_idempotencykey_key_unique'),
                ),
            ],
        ),
    ]
