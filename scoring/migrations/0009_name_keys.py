"""Names compare as people read them (issue 20, finding 12): players and clubs keep their name's
comparison key (``scoring.names.name_key``), filled here for the rows already stored."""

from django.db import migrations, models

from scoring.names import name_key


def fill_keys(apps, schema_editor):
    for model in ("Club", "Player"):
        rows = apps.get_model("scoring", model).objects.all()
        changed = []
        for row in rows.only("pk", "name").iterator():
            row.name_key = name_key(row.name)
            changed.append(row)
        rows.model.objects.bulk_update(changed, ["name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0008_idempotency_key_scope"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="name_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=255, verbose_name="khóa so tên"),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=255, verbose_name="khóa so tên"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["club", "name_key"], name="scoring_player_club_name_key"),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
