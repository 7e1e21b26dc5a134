"""Writes for roles in a club: open a club (its creator is its organiser), grant and revoke roles,
link a player to their own account. One transaction each; the club's row is locked first, so two
organisers removing each other at once cannot leave a club with none.

Who did it is recorded: ``ClubRole.granted_by``, and the role's history (django-simple-history)
records the change with its author (``_history_user``) for the club's audit.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.engine import N_, EngineError
from scoring.models import Club, ClubKind, ClubRole, ClubRoleKind, Player
from scoring.services.people import Written, club_create

__all__ = ["RoleError", "club_open", "player_link", "role_grant", "role_revoke"]


class RoleError(EngineError):
    """A role change the club's rules refuse (message in Vietnamese, for the organiser)."""

    code = "role_refused"


def _locked(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def club_open(
    *,
    name: str,
    kind: str = ClubKind.VILLAGE,
    slug: str = "",
    organiser: Any,
    idempotency_key: str | None = None,
) -> Written[Club]:
    """Create a village or club whose creator becomes its organiser (chủ sổ). A repeat of the same
    key answers the first answer and grants nothing (the first request already did)."""
    with transaction.atomic():
        written = club_create(name=name, kind=kind, slug=slug, idempotency_key=idempotency_key)
        if not written.answer.replayed:
            role = ClubRole(
                user=organiser, club=written.obj, role=ClubRoleKind.ORGANISER, granted_by=organiser
            )
            role._history_user = organiser  # type: ignore[attr-defined]
            role.save()
    return written


def _account(username: str) -> Any:
    name = (username or "").strip()
    if not name:
        raise RoleError(N_("Hãy nhập tên đăng nhập của người được cấp vai trò."))
    user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
    if user is None:
        raise RoleError(
            N_("Không có tài khoản nào tên '{name}': người đó hãy đăng ký trước (trang Đăng ký)."), name=name
        )
    return user


@transaction.atomic
def role_grant(*, club: Club, username: str, role: str, granted_by: Any) -> tuple[ClubRole, bool]:
    """Give the account ``username`` the ``role`` in ``club``: (the role, whether it is new)."""
    if role not in ClubRoleKind.values:
        raise RoleError(
            N_("Vai trò '{role}' không có: chọn chủ sổ, thư ký ghi điểm, người chơi hoặc thủ quỹ."), role=role
        )
    club = _locked(club)
    user = _account(username)
    found = ClubRole.objects.filter(user=user, club=club, role=role).first()
    if found is not None:
        return found, False
    granted = ClubRole(user=user, club=club, role=role, granted_by=granted_by)
    granted._history_user = granted_by  # type: ignore[attr-defined]
    granted.save()
    return granted, True


@transaction.atomic
def role_revoke(*, club: Club, role_id: int, revoked_by: Any) -> ClubRole:
    """Take a role back; the club keeps at least one organiser."""
    club = _locked(club)
    role = ClubRole.objects.select_related("user").filter(pk=role_id, club=club).first()
    if role is None:
        raise RoleError(N_("Vai trò này không còn (có thể ai đó vừa bỏ rồi): hãy tải lại trang."))
    organisers = ClubRole.objects.filter(club=club, role=ClubRoleKind.ORGANISER)
    if role.role == ClubRoleKind.ORGANISER and organisers.count() <= 1:
        raise RoleError(
            N_("Không bỏ được chủ sổ cuối cùng của '{name}': hãy cấp vai trò chủ sổ cho người khác trước."),
            name=club.name,
        )
    role._history_user = revoked_by  # type: ignore[attr-defined]
    role.delete()
    return role


@transaction.atomic
def player_link(*, club: Club, player_id: int, username: str, linked_by: Any) -> Player:
    """Link a player of ``club`` to their own account (empty ``username``: unlink), so that they see
    the sittings they sit in and their statements, and can confirm ván."""
    club = _locked(club)
    player = Player.objects.filter(pk=player_id, club=club).first()
    if player is None:
        raise RoleError(N_("Không có người chơi này trong '{name}'."), name=club.name)
    player.user = _account(username) if (username or "").strip() else None
    player.save(update_fields=["user"])
    return player
