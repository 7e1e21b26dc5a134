"""Who may run a festival table: its Trung Quân, the organisers of its event, and staff.

The display and the timeline are public and read-only; everything that writes goes through
:func:`can_run` (the console pages and the hardware API alike).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.console.models import FestivalTable

__all__ = ["CanRunTable", "can_run", "tables_run_by"]


def _organises(user: Any, table: FestivalTable) -> bool:
    if table.event_table_id is None:
        return False
    event = table.event_table.event  # type: ignore[union-attr]
    return bool(event.organisers.filter(pk=user.pk).exists())


def can_run(user: Any, table: FestivalTable) -> bool:
    """Whether ``user`` may give signals and open the console of ``table``."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_staff or table.trung_quan_id == user.pk or _organises(user, table))


def tables_run_by(user: Any) -> Any:
    """The festival tables ``user`` may run (all of them for staff)."""
    rows = FestivalTable.objects.select_related("sitting", "trung_quan")
    if user.is_staff:
        return rows
    return rows.filter(Q(trung_quan=user) | Q(event_table__event__organisers=user)).distinct()


class CanRunTable(BasePermission):
    """DRF permission: authenticated (else 401), and :func:`can_run` on the table (else 403)."""

    message = "Chỉ Trung Quân của chiếu này và ban tổ chức mới được gửi hiệu."

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return can_run(request.user, obj)
