"""The canh of events finished before this change become final in the ledger too (Sitting.final_at,
issue 20, finding 7): a finished event accepted ván through a PIN device's API."""

from django.db import migrations


def _forward(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    TableSitting = apps.get_model("tournaments", "TableSitting")
    Sitting = apps.get_model("scoring", "Sitting")
    for event_id, finished_at in Event.objects.filter(finished_at__isnull=False).values_list("pk", "finished_at"):
        canh = TableSitting.objects.filter(event_id=event_id).values("sitting_id")
        Sitting.objects.filter(pk__in=canh, final_at__isnull=True).update(final_at=finished_at)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0013_sitting_final_at"),
        ("tournaments", "0007_leaderboard_failure"),
    ]

    operations = [migrations.RunPython(_forward, migrations.RunPython.noop)]
