"""Ledger amounts are 64-bit (issue 20, finding 2): on PostgreSQL ``scoring_posting.amount`` was a
32-bit ``integer``, so a ván worth 2^31 points failed to post.

PostgreSQL: ``ALTER COLUMN … TYPE bigint`` rewrites the table in place; its triggers (0003: balanced,
reversal, pots, same sitting, no UPDATE or DELETE) stay as they are (they already sum into
``bigint``s) and fire on no row of the rewrite. SQLite: an ``integer`` column already holds 64-bit
integers, so nothing is done there; Django's way (rebuilding the table) would drop the table's
append-only triggers (0003 and 0007). Only the model state changes for both.
"""

from django.db import migrations, models


def _alter(type_name):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE scoring_posting ALTER COLUMN amount TYPE {type_name}")
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0009_name_keys"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="posting",
                    name="amount",
                    field=models.BigIntegerField(verbose_name="số điểm"),
                ),
            ],
            database_operations=[
                migrations.RunPython(_alter("bigint"), _alter("integer")),
            ],
        ),
    ]
