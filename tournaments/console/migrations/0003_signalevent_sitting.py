"""Each signal records its canh (sitting): an event's chiếu plays several canh, each from ván 1.

Signals given before are assigned to the canh their table was playing when they were given: for a
chiếu of an event, the latest of its canh opened by then; otherwise the table's own sitting.
"""

from django.db import migrations, models
import django.db.models.deletion


def assign_canh(apps, schema_editor):
    SignalEvent = apps.get_model("console", "SignalEvent")
    TableSitting = apps.get_model("tournaments", "TableSitting")
    canh: dict[int, list[tuple[object, int]]] = {}
    for link in TableSitting.objects.select_related("sitting").order_by("number"):
        canh.setdefault(link.table_id, []).append((link.sitting.created_at, link.sitting_id))
    for event in SignalEvent.objects.select_related("table").order_by("id").iterator():
        sitting_id = event.table.sitting_id
        opened = [pk for at, pk in canh.get(event.table.event_table_id, []) if at <= event.created_at]
        if opened:
            sitting_id = opened[-1]
        SignalEvent.objects.filter(pk=event.pk).update(sitting_id=sitting_id)


class Migration(migrations.Migration):

    dependencies = [
        ("console", "0002_seed_signals"),
        ("scoring", "0006_fewer_indexes"),
        ("tournaments", "0006_registration_own_link"),
    ]

    operations = [
        migrations.AddField(
            model_name="signalevent",
            name="sitting",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+",
                                    to="scoring.sitting", verbose_name="canh bài"),
        ),
        migrations.RunPython(assign_canh, migrations.RunPython.noop),
    ]
