"""The seeded signals in the order the console now shows them: the most used first (pass, take,
phỗng, the red flag and the long roll on the tablet's first screen; hurry and the rest grouped a
tap away). Only a seeded signal still at its seeded place moves: an order a village set in the admin
is kept."""

from django.db import migrations

#: slug → (order before, order now).
ORDERS = {
    "cac": (10, 10), "tung": (30, 20), "tung-tung": (50, 30), "co-do": (140, 40), "hoi-dai": (80, 50),
    "cac-cac-cac": (20, 60), "co-trang": (150, 70), "tung-cac": (40, 80), "tung-tung-tung": (60, 90),
    "ba-hoi-dai": (90, 100), "tung-x4": (70, 110), "co-vang": (160, 120), "tung-tung-cac": (100, 130),
    "tung-tung-tung-cac": (110, 140), "khai-hoi": (120, 150), "trong-nhac": (130, 160),
}


def _move(apps, before: int, after: int) -> None:
    Signal = apps.get_model("console", "Signal")
    for slug, orders in ORDERS.items():
        Signal.objects.filter(slug=slug, club__isnull=True, order=orders[before]).update(order=orders[after])


def forwards(apps, schema_editor):
    _move(apps, 0, 1)


def backwards(apps, schema_editor):
    _move(apps, 1, 0)


class Migration(migrations.Migration):
    dependencies = [("console", "0004_signalevent_sitting_required")]

    operations = [migrations.RunPython(forwards, backwards)]
