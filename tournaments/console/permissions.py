"""Who may run a festival table: the rule ``tournaments.run_console`` (:mod:`tournaments.permissions`).

That is the table's own Trung Quân (its ``trung_quan`` field), the Trung Quân of the event of its
chiếu (an :class:`~tournaments.models.EventRole`, event-wide or for that chiếu), the event's
organisers, and staff. The display and the timeline are public and read-only; everything that
writes goes through :func:`can_run` (the console pages and the hardware API alike).

A table the caller may neither run nor see (a private event's, to someone who takes no part in it)
is answered as no such table, after the same checks (:func:`reach`, :func:`seen`): its id cannot
be confirmed by the difference between 403 and 404, nor by the work done.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.access import NO_EVENT
from tournaments.console.models import FestivalTable
from tournaments.models import EventRole, EventRoleKind, Table
from tournaments.permissions import visible

__all__ = [
    "RUN",
    "RUN_CONSOLE",
    "SEE",
    "CanRunTable",
    "can_run",
    "event_tables_run_by",
    "reach",
    "seen",
    "tables_run_by",
]

RUN_CONSOLE = "tournaments.run_console"
#: What :func:`reach` answers: the caller may run the table; may only know it exists (a refusal to
#: run it is 403); None: nothing, not even that it exists (404, as for no such table).
RUN, SEE = "run", "see"


def _no_table() -> FestivalTable:
    """Asked about where the address names no festival table: the chiếu of no event (a private
    one nobody takes part in), so the checks run the queries a private event's table costs."""
    return FestivalTable(pk=0, event_table=Table(pk=0, event=NO_EVENT))


def can_run(user: Any, table: FestivalTable) -> bool:
    """Whether ``user`` may give signals and open the console of ``table``."""
    return bool(user is not None and user.has_perm(RUN_CONSOLE, table))


def reach(user: Any, table: FestivalTable | None) -> str | None:
    """What ``user`` may do at ``table`` (None: the address names none): :data:`RUN`, :data:`SEE`
    or None. Who may run a table may know it exists even where its event is private (the table's
    own Trung Quân needs no role in the event); anyone else only if they may see the event."""
    target = table if table is not None else _no_table()
    if can_run(user, target):
        return RUN if table is not None else None  # staff, asked about no table
    return SEE if visible(user, target) and table is not None else None


def seen(user: Any, table: FestivalTable | None) -> bool:
    """Whether ``user`` may see ``table`` (its display, timeline, stream and signals): False for no
    table, after the check a private event's table costs."""
    return visible(user, table if table is not None else _no_table()) and table is not None


def _everything(user: Any) -> bool | None:
    """True for staff, False for nobody signed in, None when the rows decide."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return False
    return True if (user.is_staff or user.is_superuser) else None


def _trung_quan_role(user: Any, event: str, table: str) -> Exists:
    """The user is Trung Quân of the event (the outer row's ``event``), event-wide or at ``table``."""
    roles = EventRole.objects.filter(user=user, role=EventRoleKind.TRUNG_QUAN, event_id=OuterRef(event))
    return Exists(roles.filter(Q(table__isnull=True) | Q(table_id=OuterRef(table))))


def tables_run_by(user: Any) -> QuerySet[FestivalTable]:
    """The festival tables ``user`` may run (all of them for staff): the same rule as :func:`can_run`."""
    rows = FestivalTable.objects.select_related("sitting", "trung_quan")
    everything = _everything(user)
    if everything is not None:
        return rows if everything else rows.none()
    organised = FestivalTable.objects.filter(event_table__event__organisers=user).values("pk")
    return rows.filter(
        Q(trung_quan=user)
        | Q(pk__in=organised)
        | Q(_trung_quan_role(user, "event_table__event_id", "event_table_id"))
    )


def event_tables_run_by(user: Any) -> QuerySet[Table]:
    """The chiếu of events whose console ``user`` may open: organisers and the event's Trung Quân."""
    rows = Table.objects.select_related("event", "round")
    everything = _everything(user)
    if everything is not None:
        return rows if everything else rows.none()
    organised = Table.objects.filter(event__organisers=user).values("pk")
    return rows.filter(Q(pk__in=organised) | Q(_trung_quan_role(user, "event_id", "pk")))


class CanRunTable(BasePermission):
    """DRF permission: authenticated (else 401), and :func:`can_run` on the table (else 403)."""

    message = gettext_lazy("Chỉ Trung Quân của chiếu này và ban tổ chức mới được gửi hiệu.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return can_run(request.user, obj)
