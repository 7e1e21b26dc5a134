"""Roles in an event, granted and revoked by its organisers (by account name).

* organisers: the :attr:`Event.organisers` of the event (an event always keeps at least one);
* scorekeepers (thư ký ghi điểm), for the whole event or one table, and the Trung Quân:
  :class:`~tournaments.models.EventRole` rows, each with who granted it.

Every grant and revocation lands in the history (django-simple-history on the event's organisers
and on the roles) with who made it and when; revoking deletes the row, the history keeps it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from scoring.engine import N_, EngineError
from tournaments.models import Event, EventRole, EventRoleKind, Table

__all__ = [
    "ORGANISER",
    "ROLE_KINDS",
    "find_account",
    "organiser_add",
    "organiser_remove",
    "role_grant",
    "role_revoke",
]

#: The organisers are the event's M2M, not an EventRole; the form names them with this value.
ORGANISER = "to_chuc"
ROLE_KINDS: list[tuple[str, str]] = [(ORGANISER, "Ban tổ chức"), *EventRoleKind.choices]


def find_account(*, username: str) -> Any:
    """The active account named ``username`` (exact name first, then ignoring case)."""
    name = (username or "").strip()
    if not name:
        raise EngineError(N_("Hãy nhập tên tài khoản."))
    users = get_user_model()._default_manager
    field = get_user_model().USERNAME_FIELD
    user = users.filter(**{field: name}).first()
    if user is None:
        found = list(users.filter(**{f"{field}__iexact": name})[:2])
        user = found[0] if len(found) == 1 else None
    if user is None:
        raise EngineError(N_("Không có tài khoản “{name}”."), name=name)
    if not user.is_active:
        raise EngineError(N_("Tài khoản “{name}” đang bị khóa."), name=name)
    return user


def _stamp(instance: Any, by: Any, reason: str) -> None:
    """Who makes the change and why, for the history row simple-history writes."""
    instance._history_user = by
    instance._change_reason = reason


@transaction.atomic
def organiser_add(*, event: Event, username: str, by: Any) -> Any:
    """Add an organiser to the event."""
    user = find_account(username=username)
    if event.organisers.filter(pk=user.pk).exists():
        raise EngineError(N_("“{user}” đã ở trong ban tổ chức."), user=user)
    _stamp(event, by, f"Thêm ban tổ chức: {user}")
    event.organisers.add(user)
    return user


@transaction.atomic
def organiser_remove(*, event: Event, user: Any, by: Any) -> None:
    """Take an organiser off the event; the last one stays (the event row is locked meanwhile, so
    two organisers removing each other at once cannot leave the event with none)."""
    locked = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
    if not locked.organisers.filter(pk=user.pk).exists():
        raise EngineError(N_("“{user}” không ở trong ban tổ chức."), user=user)
    if locked.organisers.count() <= 1:
        raise EngineError(N_("Giải phải còn ít nhất một người trong ban tổ chức: hãy thêm người khác trước."))
    _stamp(locked, by, f"Bỏ ban tổ chức: {user}")
    locked.organisers.remove(user)


def _check_table(event: Event, table: Table | None) -> None:
    if table is not None and table.event_id != event.pk:
        raise EngineError(N_("Chiếu này không thuộc giải."))


@transaction.atomic
def role_grant(*, event: Event, username: str, role: str, table: Table | None = None, by: Any) -> EventRole:
    """Make an account scorekeeper or Trung Quân of the event (``table``: only at that table)."""
    if role not in EventRoleKind.values:
        raise EngineError(N_("Hãy chọn vai trò."))
    _check_table(event, table)
    user = find_account(username=username)
    label = EventRoleKind(role).label
    held = EventRole.objects.filter(user=user, event=event, role=role)
    if held.filter(table__isnull=True).exists():
        raise EngineError(N_("“{user}” đã là {label} của cả giải."), user=user, label=label.lower())
    if table is not None and held.filter(table=table).exists():
        raise EngineError(
            N_("“{user}” đã là {label} ở {table}."), user=user, label=label.lower(), table=table
        )
    grant = EventRole(user=user, event=event, role=role, table=table, granted_by=by)
    _stamp(grant, by, f"Cấp vai trò: {label}")
    try:
        with transaction.atomic():
            grant.save()
    except IntegrityError:  # the same grant made at the same moment by another organiser
        raise EngineError(N_("“{user}” đã có vai trò này."), user=user) from None
    if table is None:  # event-wide now: the same role at single tables says nothing more
        for narrower in held.filter(table__isnull=False):
            _stamp(narrower, by, f"Thay bằng vai trò cả giải: {label}")
            narrower.delete()
    return grant


@transaction.atomic
def role_revoke(*, role: EventRole, by: Any) -> None:
    """Revoke a scorekeeper's or Trung Quân's role (at once: every check reads the rows)."""
    _stamp(role, by, f"Thu hồi vai trò: {role.get_role_display()}")
    role.delete()
