"""Names compare with look-alike letters of other scripts folded (issue 30, finding 5): a Cyrillic
"А" or a Greek "Ν" counts as the Latin letter it looks like (``scoring.names.name_key``). The keys
of the rows already stored are derived again; a name written in Vietnamese letters keeps its key."""

from django.db import migrations

from scoring.names import name_key


def refill_keys(apps, schema_editor):
    for model in ("Club", "Player", "VillageRuleSet"):
        rows = apps.get_model("scoring", model).objects.all()
        changed = []
        for row in rows.only("pk", "name", "name_key").iterator():
            key = name_key(row.name)
            if key != row.name_key:
                row.name_key = key
                changed.append(row)
        rows.model.objects.bulk_update(changed, ["name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0017_van_entering_and_confirming_player"),
    ]

    operations = [
        migrations.RunPython(refill_keys, migrations.RunPython.noop),
    ]
