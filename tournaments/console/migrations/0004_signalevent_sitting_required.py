"""A signal's canh is required from now on (every signal has one since 0003); the display reads a
ván's signals by canh."""

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):
    # In its own migration: on PostgreSQL the rows 0003 updated leave deferred foreign-key checks
    # pending, and a table with pending checks cannot be altered in the same transaction.

    dependencies = [
        ("console", "0003_signalevent_sitting"),
    ]

    operations = [
        migrations.AlterField(
            model_name="signalevent",
            name="sitting",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                    to="scoring.sitting", verbose_name="canh bài"),
        ),
        migrations.RemoveIndex(model_name="signalevent", name="console_signal_van"),
        migrations.AddIndex(
            model_name="signalevent",
            index=models.Index(fields=["sitting", "van_seq", "id"], name="console_signal_canh_van"),
        ),
    ]
