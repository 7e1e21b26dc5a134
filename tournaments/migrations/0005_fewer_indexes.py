"""A canh's ``table_id`` and ``event_id`` lose their own indexes: ``tournaments_canh_number_once``
(table, number) and ``tournaments_canh_changed`` (event, changed_seq) start with them
(docs/reliability.md, "Load": every index costs each new database connection's first use).
Database changes written here so that SQLite does not rebuild the table.
"""

import django.db.models.deletion
from django.db import migrations, models


INDEXES = [
    ("tournaments_tablesitting", "tournaments_tablesitting_event_id_67c283ab", "event_id"),
    ("tournaments_tablesitting", "tournaments_tablesitting_table_id_50bdf44e", "table_id"),
]


def forward(apps, schema_editor):
    for _table, name, _column in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


def backward(apps, schema_editor):
    for table, name, column in INDEXES:
        schema_editor.execute(f'CREATE INDEX "{name}" ON "{table}" ("{column}")')


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_audit_people'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(forward, backward, elidable=False)],
            state_operations=[
                migrations.AlterField(
                    model_name='tablesitting',
                    name='event',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.event'),
                ),
                migrations.AlterField(
                    model_name='tablesitting',
                    name='table',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='canh', to='tournaments.table'),
                ),
            ],
        ),
    ]
