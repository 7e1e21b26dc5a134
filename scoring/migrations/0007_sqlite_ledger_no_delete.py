"""SQLite (the embedded default): postings and ledger transactions are not deleted either.

Until now only PostgreSQL refused DELETE, because Django's flush (the test suite's teardown)
deletes rows on SQLite. The project's SQLite backend (``totom_site.sqlite``) now tells these
triggers when a flush is under way; any other DELETE is refused, as on PostgreSQL.
"""

from django.db import migrations

FORWARD = [
    """CREATE TRIGGER scoring_posting_no_delete BEFORE DELETE ON scoring_posting
       WHEN NOT sotom_ledger_flushing()
       BEGIN SELECT RAISE(ABORT, 'Sổ điểm chỉ được ghi thêm: không được xóa dòng bút toán (hãy ghi bút toán đảo).'); END""",
    """CREATE TRIGGER scoring_ledgertransaction_no_delete BEFORE DELETE ON scoring_ledgertransaction
       WHEN NOT sotom_ledger_flushing()
       BEGIN SELECT RAISE(ABORT, 'Sổ điểm chỉ được ghi thêm: không được xóa bút toán (hãy ghi bút toán đảo).'); END""",
]
BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_posting_no_delete",
    "DROP TRIGGER IF EXISTS scoring_ledgertransaction_no_delete",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "sqlite":
            return  # PostgreSQL has refused DELETE since 0003
        with schema_editor.connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
    return run


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0006_fewer_indexes"),
    ]

    operations = [
        migrations.RunPython(_run(FORWARD), _run(BACKWARD)),
    ]
