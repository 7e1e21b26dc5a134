"""Who may do what in an event: the object-level rules of the tournaments app, in one place.

* ``tournaments.manage_event``: organisers (and staff): registration, rounds, roles, audit;
* ``tournaments.keep_score_at``: enter ván at a table: organisers, the event's scorekeepers
  (event-wide or for that table); a table token (PIN / QR link) does the same for a session;
* ``tournaments.run_console``: the Trung Quân of the event (event-wide or that table), organisers,
  and the Trung Quân named on a console's festival table (obj: FestivalTable, or its chiếu);
* ``tournaments.view_event``: **the one visibility rule** of everything public about an event (its
  pages, exports, the audience display and timeline of its festival tables, their SSE stream and
  signals API, the names on a table's PIN page): a public event is public; a private one only for its
  organisers, holders of an event role and registered players with an account. A festival table of
  the console that belongs to no event is public. (:func:`visible`);
* ``tournaments.view_statement``: a player's statement: the player's own account, organisers and
  scorekeepers of the event (a scorekeeper of one table: the players of that table) (the public
  sees totals on the scoreboard, nothing personal).

The sổ điểm's rules (:mod:`scoring.permissions`) learn from here that the event's organisers and
scorekeepers may keep score in, see and audit the sittings of its tables.
"""

from __future__ import annotations

from typing import Any

import rules
from django.db.models import Q

from scoring.models import Seat, Sitting
from scoring.permissions import (
    AUDIT,
    KEEP,
    VIEW,
    Grant,
    is_staff,
    register_request_grant,
    register_sitting_grant,
)
from tournaments.models import (
    Event,
    EventRole,
    EventRoleKind,
    Registration,
    ScorekeeperToken,
    Table,
    TableSitting,
)

__all__ = [
    "SESSION_HOLDERS",
    "SESSION_TOKENS",
    "VIEW_EVENT",
    "session_holder",
    "session_token_tables",
    "table_grant",
    "token_grant",
    "visible",
]

VIEW_EVENT = "tournaments.view_event"

#: Session key: table id → the token this device entered with (checked again on every request).
SESSION_TOKENS = "tournaments_table_tokens"
#: Session key: table id → the seated player this device named as its holder when it entered the
#: table's PIN or QR link (who enters ván on it, for two-person confirmation).
SESSION_HOLDERS = "tournaments_table_holders"


def _signed_in(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_active)


def _event_of(obj: Any) -> Event | None:
    if isinstance(obj, Event):
        return obj
    if isinstance(obj, Table):
        return obj.event
    if hasattr(obj, "event_table_id"):  # a festival table (console): the event of its chiếu, if any
        return obj.event_table.event if obj.event_table_id is not None else None
    return getattr(obj, "event", None)


def _table_of(obj: Any) -> Table | None:
    if hasattr(obj, "event_table_id"):  # a festival table (console): its chiếu of the event
        return obj.event_table if obj.event_table_id is not None else None
    return obj if isinstance(obj, Table) else None


def _organises(user: Any, event: Event | None) -> bool:
    return _signed_in(user) and event is not None and event.organisers.filter(pk=user.pk).exists()


def _holds(user: Any, event: Event | None, role: str | None, table: Table | None) -> bool:
    """A role in the event: event-wide, or at ``table`` (any table when ``table`` is None)."""
    if not _signed_in(user) or event is None:
        return False
    roles = EventRole.objects.filter(user=user, event=event)
    if role is not None:
        roles = roles.filter(role=role)
    if table is not None:
        roles = roles.filter(Q(table__isnull=True) | Q(table=table))
    return roles.exists()


@rules.predicate
def organises_event(user: Any, obj: Any) -> bool:
    return _organises(user, _event_of(obj))


@rules.predicate
def keeps_event_score(user: Any, obj: Any) -> bool:
    return _holds(user, _event_of(obj), EventRoleKind.SCOREKEEPER, _table_of(obj))


@rules.predicate
def trung_quan_of(user: Any, obj: Any) -> bool:
    return _holds(user, _event_of(obj), EventRoleKind.TRUNG_QUAN, _table_of(obj))


@rules.predicate
def festival_trung_quan(user: Any, obj: Any) -> bool:
    """The Trung Quân named on a festival table of the console (its own ``trung_quan`` field)."""
    return _signed_in(user) and getattr(obj, "trung_quan_id", None) == user.pk


@rules.predicate
def takes_part(user: Any, obj: Any) -> bool:
    event = _event_of(obj)
    if not _signed_in(user) or event is None:
        return False
    return (
        _holds(user, event, None, None)
        or Registration.objects.filter(event=event, player__user=user).exists()
    )


@rules.predicate
def public_event(user: Any, obj: Any) -> bool:
    event = _event_of(obj)
    return bool(event is not None and event.is_public)


@rules.predicate
def outside_events(user: Any, obj: Any) -> bool:
    """A festival table of the console that is no event's chiếu: its display is public."""
    return hasattr(obj, "event_table_id") and obj.event_table_id is None


@rules.predicate
def keeps_score_for(user: Any, registration: Any) -> bool:
    """A scorekeeper of the registration's event: event-wide, or at a table where the player sat
    (a role scoped to one table reaches that table's players only)."""
    if not _signed_in(user):
        return False
    roles = EventRole.objects.filter(
        user=user, event_id=registration.event_id, role=EventRoleKind.SCOREKEEPER
    )
    seated_at = TableSitting.objects.filter(sitting__seats__player_id=registration.player_id).values(
        "table_id"
    )
    return roles.filter(Q(table__isnull=True) | Q(table_id__in=seated_at)).exists()


@rules.predicate
def own_statement(user: Any, registration: Any) -> bool:
    return _signed_in(user) and getattr(registration.player, "user_id", None) == user.pk


manage_event = is_staff | organises_event
rules.add_perm("tournaments.manage_event", manage_event)
rules.add_perm("tournaments.keep_score_at", manage_event | keeps_event_score)
rules.add_perm("tournaments.run_console", manage_event | trung_quan_of | festival_trung_quan)
rules.add_perm(VIEW_EVENT, outside_events | public_event | manage_event | takes_part)
rules.add_perm("tournaments.view_statement", manage_event | keeps_score_for | own_statement)


def visible(user: Any, obj: Any) -> bool:
    """Whether ``user`` (None: a visitor) may see ``obj`` (an event, a table, a festival table…) and
    what is public about it: ``tournaments.view_event``, asked the same way by every page, export,
    display, stream and API."""
    from django.contrib.auth.models import AnonymousUser

    return bool((user or AnonymousUser()).has_perm(VIEW_EVENT, obj))


# -- what the event lets people do with the sittings of its tables ----------------------------------


def _canh(sitting: Sitting) -> TableSitting | None:
    return TableSitting.objects.select_related("table__event").filter(sitting=sitting).first()


def _sitting_grant(user: Any, sitting: Sitting, what: str) -> bool:
    canh = _canh(sitting)
    if canh is None:
        return False
    event, table = canh.table.event, canh.table
    if _organises(user, event):
        return True
    if what == AUDIT:
        return False
    if _holds(user, event, EventRoleKind.SCOREKEEPER, table):
        return True
    return what == VIEW and _holds(user, event, EventRoleKind.TRUNG_QUAN, table)


def _visible(user: Any) -> Q:
    """The canh an account sees through the event: every canh of the events it organises or holds
    an event-wide scorekeeper or Trung Quân role in; only its table's canh for a role scoped to one
    table (as :func:`_sitting_grant` decides for one sitting)."""
    roles = EventRole.objects.filter(
        user=user, role__in=[EventRoleKind.SCOREKEEPER, EventRoleKind.TRUNG_QUAN]
    )
    return (
        Q(event_canh__event__organisers=user)
        | Q(event_canh__event_id__in=roles.filter(table__isnull=True).values("event_id"))
        | Q(event_canh__table_id__in=roles.filter(table__isnull=False).values("table_id"))
    )


def session_token_tables(request: Any) -> dict[int, int]:
    """Table id → token id remembered by this device's session."""
    session = getattr(request, "session", None)
    if session is None:
        return {}
    remembered = session.get(SESSION_TOKENS, {}) or {}
    return {int(table): int(token) for table, token in remembered.items() if str(table).isdigit()}


def session_holder(request: Any, table_id: int | None) -> int | None:
    """The player this device named as its holder at the table (not checked against the seats)."""
    session = getattr(request, "session", None)
    if session is None or table_id is None:
        return None
    holder = (session.get(SESSION_HOLDERS, {}) or {}).get(str(table_id))
    return holder if isinstance(holder, int) else None


def token_grant(token_id: int, issued_by: int | None, holder: int | None = None) -> Grant:
    """How a ván entered with a table's token names it (:class:`scoring.models.Van`'s ``entered_grant``)."""
    return Grant(f"token:{token_id}", issued_by, holder)


def table_grant(request: Any, table_id: int | None, sitting: Any = None) -> Grant | None:
    """The live token of the table this device entered (its PIN or QR link), as a grant; or None.
    Its holder: the player the device named, if seated in ``sitting`` (by default the table's
    current canh)."""
    token_id = session_token_tables(request).get(table_id) if table_id is not None else None
    if not token_id:
        return None
    found = ScorekeeperToken.objects.filter(
        pk=token_id, table_id=table_id, revoked_at__isnull=True, table__closed_at__isnull=True
    ).values_list("created_by_id", "table__sitting_id")
    for issued_by, current in found:
        holder = session_holder(request, table_id)
        where = getattr(sitting, "pk", sitting) or current
        if holder is not None and not Seat.objects.filter(sitting_id=where, player_id=holder).exists():
            holder = None
        return token_grant(token_id, issued_by, holder)
    return None


def _request_grant(request: Any, sitting: Any, what: str) -> Grant | None:
    """A device that entered a table's live PIN or QR link keeps score in that table's canh."""
    if what not in (VIEW, KEEP) or not session_token_tables(request):
        return None
    canh = TableSitting.objects.filter(sitting=sitting).values_list("table_id", flat=True).first()
    return table_grant(request, canh, sitting)


register_sitting_grant(_sitting_grant, _visible)
register_request_grant(_request_grant)
