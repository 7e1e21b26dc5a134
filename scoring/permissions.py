"""Who may do what with a sitting (canh bài) and a club: the object-level rules, in one place.

Every page and API endpoint of the sổ điểm asks these, never ``is_staff`` or ownership by hand:

* ``scoring.view_sitting``: see a sitting's ván, balances, statements and exports;
* ``scoring.keep_score``: record, preview, correct ván and settle up;
* ``scoring.review_van``: confirm or reject a ván (two-person confirmation; never one's own);
* ``scoring.view_audit``: the sitting's audit trail (organisers);
* ``scoring.manage_club``: grant and revoke roles in a club, see its audit;
* ``scoring.open_sitting``: open a sitting in a club (the club's organisers and scorekeepers);
* ``scoring.keep_club_book``: the club book whole (every member's balances and statements, the
  API's every row) and closing a period (the club's organisers and treasurers, thủ quỹ); a member
  with an account sees only their own rows (:func:`book_players`).
* ``scoring.change_rule_set``: save a new version of a village rule set (its owner: the owning
  club's organisers, or the person who owns it; staff).

Roles come from :class:`scoring.models.ClubRole`, the sitting's creator, the player's own account
(:attr:`Player.user`, seated in the sitting) and, through :func:`register_sitting_grant`, other apps:
the tournaments app adds event organisers, event scorekeepers and table tokens. Who holds a table's
PIN or QR link has no account, only a session, so the request-level check :func:`can` also asks the
hooks registered with :func:`register_request_grant`.

A credential narrower than its account (a platform token, scoped to one club or one event, to
read or to write) carries a :class:`CredentialScope`: :func:`can` then also asks it, so the
account's roles outside that scope, or its writes with a read-only token, are refused.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

import rules
from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.signals import post_delete, post_save

from scoring.models import ClubRole, ClubRoleKind, Player, Seat, Sitting
from scoring.services import rows
from scoring.services.people import EntryVia

__all__ = [
    "BOOK_ROLES",
    "KEEP",
    "REVIEW",
    "VIEW",
    "CredentialScope",
    "Grant",
    "book_member",
    "book_players",
    "can",
    "credential_scope",
    "device_of",
    "entry_via",
    "held_grant",
    "in_scope",
    "remember_device",
    "review_via",
    "register_request_grant",
    "register_sitting_grant",
    "roles_read_once",
    "visible_sittings",
]

VIEW, KEEP, REVIEW, AUDIT = "view", "keep", "review", "audit"
SCOREKEEPING_ROLES = (ClubRoleKind.ORGANISER, ClubRoleKind.SCOREKEEPER)
#: Who keeps a club's book whole: its organisers and its treasurers.
BOOK_ROLES = (ClubRoleKind.ORGANISER, ClubRoleKind.TREASURER)

#: (user, sitting, what) → bool, registered by other apps (what is one of VIEW, KEEP, AUDIT).
_sitting_grants: list[Callable[[Any, Sitting, str], bool]] = []
#: user → Q over Sitting of the sittings the app lets the user see.
_visible_q: list[Callable[[Any], Q]] = []


@dataclass(frozen=True, slots=True)
class Grant:
    """A permission a session holds rather than an account (a table's PIN or QR link): its name
    (``"token:12"``), the id of the account that issued it and the seated player the device named
    as its holder (None: not named, or not seated in the sitting asked about)."""

    key: str
    issued_by: int | None = None
    holder: int | None = None


#: (request, sitting or its id, what) → the grant it holds, or None; for grants held by a session
#: rather than an account.
_request_grants: list[Callable[[Any, Any, str], Grant | None]] = []


class CredentialScope(Protocol):
    """What a credential narrower than its account may reach (a platform token, defined by the app
    that issues it): the account's own rights still apply, within this scope only."""

    #: False: reading only (every write is refused, whatever the account may do).
    writes: bool

    def narrow(self, sittings: QuerySet[Sitting]) -> QuerySet[Sitting]:
        """The sittings of ``sittings`` within the scope."""
        ...

    def allows_club(self, club_id: int | None) -> bool:
        """Whether a new sitting (or player) may be added to this club (None: no club)."""
        ...


def credential_scope(request: Any) -> CredentialScope | None:
    """The scope of the credential the request was authenticated with (None: the whole account)."""
    return getattr(getattr(request, "auth", None), "credential_scope", None)


def in_scope(request: Any, what: str, sitting: Sitting) -> bool:
    """Whether the request's credential reaches ``sitting`` for ``what`` (always, without a scope)."""
    scope = credential_scope(request)
    if scope is None:
        return True
    if what != VIEW and not scope.writes:
        return False
    return scope.narrow(Sitting.objects.filter(pk=sitting.pk)).exists()


def register_sitting_grant(grant: Callable[[Any, Sitting, str], bool], visible: Callable[[Any], Q]) -> None:
    """Let another app grant VIEW / KEEP / AUDIT on sittings (``visible`` lists what it lets a user see)."""
    if grant not in _sitting_grants:
        _sitting_grants.append(grant)
        _visible_q.append(visible)


def register_request_grant(grant: Callable[[Any, Any, str], Grant | None]) -> None:
    """Let another app grant VIEW / KEEP on a sitting from the request (a session's table token):
    the hook answers the :class:`Grant` the request holds, or None."""
    if grant not in _request_grants:
        _request_grants.append(grant)


def _signed_in(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_active)


#: Inside :func:`roles_read_once` (an API request): each account's roles in each club, read once
#: for the request's predicates (the permission, then the quota's own-village check); emptied
#: when a role is granted or revoked meanwhile. None outside: every predicate reads.
_ROLES_SEEN: ContextVar[dict[tuple[Any, int], frozenset[str]] | None] = ContextVar(
    "club_roles_seen", default=None
)


@contextmanager
def roles_read_once() -> Iterator[None]:
    """Read an account's roles in a club once for what runs inside (one request)."""
    token = _ROLES_SEEN.set({})
    try:
        yield
    finally:
        _ROLES_SEEN.reset(token)


def roles_with_sitting(user: Any) -> tuple[str, list[Any]]:
    """The SQL expression, on a sitting's row (``t0``), of ``user``'s roles in its club (joined
    by commas; empty for none), to be read with the sitting (:func:`rows.select_one_with`) and
    handed to :func:`remember_roles`: the permission then reads no more. ``("", [])`` when there
    is nothing to read them for (no account, or outside :func:`roles_read_once`)."""
    if _ROLES_SEEN.get() is None or not _signed_in(user):
        return "", []
    concat = "string_agg" if connection.vendor == "postgresql" else "group_concat"
    return (
        f"COALESCE((SELECT {concat}(role, ',') FROM {ClubRole._meta.db_table} "
        "WHERE user_id = %s AND club_id = t0.club_id), '')",
        [user.pk],
    )


def remember_roles(user: Any, club_id: int | None, joined: str | None) -> None:
    """Keep ``user``'s roles in ``club_id`` read by :func:`roles_with_sitting` for this request."""
    seen = _ROLES_SEEN.get()
    if seen is not None and joined is not None and club_id is not None:
        seen[(user.pk, club_id)] = frozenset(joined.split(",")) if joined else frozenset()


def _roles_changed(sender: Any, **kwargs: Any) -> None:
    seen = _ROLES_SEEN.get()
    if seen:
        seen.clear()


post_save.connect(_roles_changed, sender=ClubRole, dispatch_uid="scoring.permissions.roles_changed")
post_delete.connect(_roles_changed, sender=ClubRole, dispatch_uid="scoring.permissions.roles_deleted")


def _club_roles(user: Any, club_id: int | None, roles: Iterable[str] | None = None) -> bool:
    if club_id is None or not _signed_in(user):
        return False
    seen = _ROLES_SEEN.get()
    if seen is None:
        found = ClubRole.objects.filter(user=user, club_id=club_id)
        return (found.filter(role__in=list(roles)) if roles is not None else found).exists()
    held = seen.get((user.pk, club_id))
    if held is None:  # on every ván: plain SQL, as the rest of the ván path (scoring.services.rows)
        held = seen[(user.pk, club_id)] = frozenset(
            rows.column(
                sql=f"SELECT role FROM {ClubRole._meta.db_table} WHERE user_id = %s AND club_id = %s",
                params=[user.pk, club_id],
                # The ORM's queryset is built only on that path: building it costs more than the read.
                orm=lambda: ClubRole.objects.filter(user=user, club_id=club_id).values_list(
                    "role", flat=True
                ),
            )
        )
    return bool(held) if roles is None else not held.isdisjoint(roles)


def _granted(user: Any, sitting: Sitting, what: str) -> bool:
    return _signed_in(user) and any(grant(user, sitting, what) for grant in _sitting_grants)


@rules.predicate
def is_staff(user: Any) -> bool:
    return _signed_in(user) and bool(user.is_staff)


@rules.predicate
def opened_it(user: Any, sitting: Sitting) -> bool:
    """A sitting of no club belongs to whoever opened it; a club's sitting answers to the club's
    roles only (someone who leaves the club loses the sittings they opened there)."""
    return (
        _signed_in(user)
        and sitting.club_id is None
        and sitting.created_by_id is not None
        and sitting.created_by_id == user.pk
    )


@rules.predicate
def keeps_club_score(user: Any, sitting: Sitting) -> bool:
    return _club_roles(user, sitting.club_id, SCOREKEEPING_ROLES)


@rules.predicate
def club_member(user: Any, sitting: Sitting) -> bool:
    return _club_roles(user, sitting.club_id)


@rules.predicate
def organises_club(user: Any, sitting: Sitting) -> bool:
    return _club_roles(user, sitting.club_id, [ClubRoleKind.ORGANISER])


@rules.predicate
def seated(user: Any, sitting: Sitting) -> bool:
    return _signed_in(user) and Seat.objects.filter(sitting=sitting, player__user=user).exists()


@rules.predicate
def event_keeps(user: Any, sitting: Sitting) -> bool:
    return _granted(user, sitting, KEEP)


@rules.predicate
def event_sees(user: Any, sitting: Sitting) -> bool:
    return _granted(user, sitting, VIEW)


@rules.predicate
def event_audits(user: Any, sitting: Sitting) -> bool:
    return _granted(user, sitting, AUDIT)


@rules.predicate
def organises(user: Any, club: Any) -> bool:
    return _club_roles(user, getattr(club, "pk", None), [ClubRoleKind.ORGANISER])


@rules.predicate
def keeps_score_in(user: Any, club: Any) -> bool:
    return _club_roles(user, getattr(club, "pk", None), SCOREKEEPING_ROLES)


@rules.predicate
def keeps_books(user: Any, club: Any) -> bool:
    return _club_roles(user, getattr(club, "pk", None), BOOK_ROLES)


@rules.predicate
def manages_rule_set(user: Any, rule_set: Any) -> bool:
    if not _signed_in(user) or rule_set is None:
        return False
    if rule_set.owner_club_id is not None:
        return _club_roles(user, rule_set.owner_club_id, [ClubRoleKind.ORGANISER])
    return rule_set.owner_user_id is not None and rule_set.owner_user_id == user.pk


keep_score = is_staff | opened_it | keeps_club_score | event_keeps
rules.add_perm("scoring.keep_score", keep_score)
rules.add_perm("scoring.view_sitting", keep_score | club_member | seated | event_sees)
rules.add_perm("scoring.review_van", keep_score | seated)
rules.add_perm("scoring.view_audit", is_staff | opened_it | organises_club | event_audits)
rules.add_perm("scoring.manage_club", is_staff | organises)
rules.add_perm("scoring.open_sitting", is_staff | keeps_score_in)
rules.add_perm("scoring.keep_club_book", is_staff | keeps_books)
rules.add_perm("scoring.change_rule_set", is_staff | manages_rule_set)

_PERMS = {
    VIEW: "scoring.view_sitting",
    KEEP: "scoring.keep_score",
    REVIEW: "scoring.review_van",
    AUDIT: "scoring.view_audit",
}


def can(request: Any, what: str, sitting: Sitting) -> bool:
    """Whether the request (its user, or a grant its session holds) may do ``what`` with ``sitting``,
    within the scope of its credential (:func:`credential_scope`)."""
    if not in_scope(request, what, sitting):
        return False
    user = getattr(request, "user", None)
    if user is not None and user.has_perm(_PERMS[what], sitting):
        return True
    return what in (VIEW, KEEP) and held_grant(request, sitting, what) is not None


def held_grant(request: Any, sitting: Sitting | int, what: str = KEEP) -> Grant | None:
    """The grant the request's session holds to do ``what`` in ``sitting`` (a table's PIN or QR
    link), or None. No query when the session holds no grant at all."""
    for hook in _request_grants:
        grant = hook(request, sitting, what)
        if grant is not None:
            return grant
    return None


# -- the device: a random id kept in its session, so a ván entered on it is known by it -------------

#: Session key of the device's own random id: set when the device is given a grant (a table's PIN
#: or QR link); kept when someone signs in on it (Django keeps the session's data then).
DEVICE_KEY = "so_tom_device"


def remember_device(request: Any) -> None:
    """Give the request's device an id of its own, if it has none."""
    session = getattr(request, "session", None)
    if session is not None and not session.get(DEVICE_KEY):
        session[DEVICE_KEY] = secrets.token_urlsafe(18)


def device_of(request: Any) -> str:
    """A digest of the device's id ("" when it has none): what a ván records, never the id itself."""
    session = getattr(request, "session", None)
    raw = session.get(DEVICE_KEY, "") if session is not None else ""
    return hashlib.sha256(str(raw).encode()).hexdigest()[:32] if raw else ""


def entry_via(request: Any, sitting: Sitting | int) -> EntryVia:
    """What a ván written by this request records besides its account: the grant it was written
    with (only when the account alone could not keep score there) and the device."""
    grant = held_grant(request, sitting, KEEP)
    if grant is not None:
        user = getattr(request, "user", None)
        pk = sitting.pk if isinstance(sitting, Sitting) else sitting
        if (
            user is not None
            and user.is_authenticated
            and user.has_perm(_PERMS[KEEP], Sitting.objects.get(pk=pk))
        ):
            grant = None
    if grant is None:
        return EntryVia(device=device_of(request))
    return EntryVia(grant=grant.key, grant_by=grant.issued_by, device=device_of(request), player=grant.holder)


def review_via(request: Any, sitting: Sitting | int) -> EntryVia:
    """What a reviewer's request holds besides the account: any grant in the sitting, the device."""
    grant = held_grant(request, sitting, KEEP)
    return EntryVia(
        grant=grant.key if grant else "",
        grant_by=grant.issued_by if grant else None,
        device=device_of(request),
        player=grant.holder if grant else None,
    )


def visible_sittings(user: Any) -> QuerySet[Sitting]:
    """The sittings ``user`` may see (none for a visitor who is not signed in)."""
    sittings = Sitting.objects.all()
    if not _signed_in(user):
        return sittings.none()
    if user.is_staff:
        return sittings
    q = Q(created_by=user, club__isnull=True) | Q(club__roles__user=user) | Q(seats__player__user=user)
    for visible in _visible_q:
        q |= visible(user)
    return sittings.filter(pk__in=Sitting.objects.filter(q).values("pk"))


def book_players(user: Any, club: Any) -> list[int]:
    """The players of ``club``'s book that are ``user``'s own (linked to the account): of the
    club, or seated in one of its canh."""
    if not _signed_in(user):
        return []
    own = Player.objects.filter(user=user)
    return list(
        own.filter(Q(club=club) | Q(seats__sitting__club=club)).distinct().values_list("pk", flat=True)
    )


def book_member(user: Any, club: Any) -> bool:
    """Whether ``user`` may open the club's book at all (the whole of it, or their own rows)."""
    if not _signed_in(user):
        return False
    return bool(
        user.has_perm("scoring.keep_club_book", club)
        or _club_roles(user, club.pk)
        or book_players(user, club)
    )
