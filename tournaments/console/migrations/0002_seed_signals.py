"""Seed the signal catalogue with every drum, big-drum and flag signal of RULES.md §14."""

from django.db import migrations


def seed(apps, schema_editor):
    from tournaments.console.catalogue import SIGNALS

    Signal = apps.get_model("console", "Signal")
    for row in SIGNALS:
        Signal.objects.update_or_create(slug=row["slug"], defaults={k: v for k, v in row.items() if k != "slug"})


def unseed(apps, schema_editor):
    from tournaments.console.catalogue import SIGNALS

    Signal = apps.get_model("console", "Signal")
    Signal.objects.filter(slug__in=[row["slug"] for row in SIGNALS], club__isnull=True, events__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("console", "0001_signals_tables")]

    operations = [migrations.RunPython(seed, unseed)]
