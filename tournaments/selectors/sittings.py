"""The sittings played at an event's tables (every canh of every table), for its backup and its chart."""

from __future__ import annotations

from scoring.models import Sitting
from tournaments import models as tm
from tournaments.models import Event, Table

__all__ = ["event_sittings", "sitting_rounds"]


def sitting_rounds(event: Event) -> dict[int, int]:
    """Sitting id → round number, for every sitting played at the event's tables (every canh)."""
    found = dict(Table.objects.filter(event=event).values_list("sitting_id", "round__number"))
    canh = getattr(tm, "TableSitting", None)  # tables may play several canh
    if canh is not None:
        found.update(canh.objects.filter(event=event).values_list("sitting_id", "table__round__number"))
    return found


def event_sittings(event: Event) -> list[Sitting]:
    ids = sitting_rounds(event)
    return list(
        Sitting.objects.filter(pk__in=ids).select_related("rules", "club", "created_by").order_by("id")
    )
