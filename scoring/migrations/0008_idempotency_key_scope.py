"""Idempotency keys belong to their caller (issue 20, finding 11): another account sending the same
key and body was answered with the first account's answer. Keys are unique per (scope, key) now;
rows written before this have the empty scope (writes outside any request)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0007_sqlite_ledger_no_delete"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="idempotencykey",
            name="scoring_idempotencykey_key_unique",
        ),
        migrations.AddField(
            model_name="idempotencykey",
            name="scope",
            field=models.CharField(blank=True, default="", max_length=80, verbose_name="phạm vi"),
        ),
        migrations.AddConstraint(
            model_name="idempotencykey",
            constraint=models.UniqueConstraint(fields=("scope", "key"), name="scoring_idempotencykey_scope_key_unique"),
        ),
    ]
