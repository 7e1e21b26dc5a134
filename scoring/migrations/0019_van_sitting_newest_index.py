"""A ván's sitting indexed with the ván's id, in place of the foreign key's own index: the state
snapshot's key reads the sitting's newest ván row from it (scoring/services/ledger.py), and it serves
every lookup the foreign key's index served. The new index is made before the old one is dropped."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0018_name_keys_fold_look_alikes"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="van",
            index=models.Index(fields=["sitting", "id"], name="scoring_van_sitting_newest"),
        ),
        migrations.AlterField(
            model_name="van",
            name="sitting",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="van",
                to="scoring.sitting",
            ),
        ),
    ]
