"""The audit trail (nhật ký): who created, corrected, confirmed or changed what, and when.

Read only, from the records the writes leave behind: the sittings themselves, every version of
every ván (``entered_by``; a correction ``replaces`` an older version and says why), the
confirmations and rejections (:class:`VanReview`), the settle-up's ledger transactions, and the
simple-history tables of club roles and village rule sets.

Every function returns :class:`AuditEntry` rows newest first, one page at a time (``offset``,
``limit``): each source is read newest first, at most ``offset + limit`` rows of it, then the
sources are merged, so a page costs a fixed number of queries however long the history is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from typing import Any

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.i18n import reason
from scoring.models import (
    Club,
    ClubRole,
    LedgerTransaction,
    Seat,
    Sitting,
    TransactionKind,
    Van,
    VanReview,
    VanReviewDecision,
    VillageRuleSet,
)
from scoring.selectors.rules import applied_rules_names

__all__ = [
    "NOBODY",
    "PAGE_SIZE",
    "AuditEntry",
    "club_audit",
    "merge",
    "person",
    "register_author_hook",
    "register_club_source",
    "register_sitting_source",
    "role_entry",
    "rules_audit",
    "sitting_audit",
    "sitting_entries",
    "with_previous",
]

#: Shown as "who" when no one is known (a change made outside a signed-in request).
NOBODY = "—"
PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One line of an audit trail."""

    when: datetime
    #: The person's name, "mã ghi điểm <nhãn>" for a table token, or :data:`NOBODY`.
    who: str
    #: What was done, in the active language ("Ghi ván 3", "Sửa ván 3: <lý do>", …).
    action: str
    #: What it was done to ("Ván 3", "Vòng 1 · chiếu 2 · canh 1 · Ván 3", "Làng Đông").
    object: str
    detail: str = ""
    #: Orders entries of the same moment (newest first): the source's rank, then the row's id.
    order: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)


def person(user: Any) -> str:
    """How a user is named in the trail: the full name if set, else the username."""
    if user is None:
        return NOBODY
    return (user.get_full_name() or "").strip() or user.get_username()


def _with_player(who: str, player: Any) -> str:
    """Who did it, and the seated player they are (a table phone's named holder, the player
    linked to a confirming account) when that is another name."""
    if player is None or player.name == who:
        return who
    return player.name if who == NOBODY else f"{who} ({player.name})"


def merge(sources: Iterable[Iterable[AuditEntry]], *, offset: int, limit: int) -> list[AuditEntry]:
    """Newest first across the sources, then the page ``[offset, offset + limit)``."""
    entries = sorted(chain.from_iterable(sources), key=lambda e: (e.when, e.order), reverse=True)
    return entries[offset : offset + limit]


# -- who entered a ván without an account: other apps know (a festival table's token) -------------

#: vans (some with no ``entered_by``) → {ván id: who}, registered by other apps.
AuthorHook = Callable[[Sequence[Van]], Mapping[int, str]]
_author_hooks: list[AuthorHook] = []


def register_author_hook(hook: AuthorHook) -> None:
    """Let another app name who entered ván that carry no account (e.g. a table's token)."""
    if hook not in _author_hooks:
        _author_hooks.append(hook)


def _authors(vans: Sequence[Van]) -> dict[int, str]:
    anonymous = [v for v in vans if v.entered_by_id is None]
    found: dict[int, str] = {}
    if anonymous:
        for hook in _author_hooks:
            found.update(hook(anonymous))
    return found


# -- sittings: opened, ván versions, confirmations, settle-up ----------------------------------------

#: Sitting ids → how each is named in a trail that mixes several sittings.
Labeller = Callable[[set[int]], Mapping[int, str]]
#: (sittings as a subquery of ids, n, labeller) → at most n newest entries of each kind another app
#: keeps about those sittings (e.g. a sitting imported whole from an online platform).
SittingSource = Callable[[QuerySet[Any], int, Labeller | None], list[AuditEntry]]
#: (club, n) → at most n newest entries of each kind another app keeps about a club (its tokens, webhooks).
ClubSource = Callable[[Club, int], list[AuditEntry]]
_sitting_sources: list[SittingSource] = []
_club_sources: list[ClubSource] = []


def register_sitting_source(source: SittingSource) -> None:
    """Let another app add entries to the trails of sittings (and of the clubs and events holding them)."""
    if source not in _sitting_sources:
        _sitting_sources.append(source)


def register_club_source(source: ClubSource) -> None:
    """Let another app add entries to a club's trail."""
    if source not in _club_sources:
        _club_sources.append(source)


def _van_summary(van: Van) -> str:
    parts = [pgettext("van outcome", van.get_outcome_display())]
    if van.winner_id:
        parts.append(van.winner.name)  # type: ignore[union-attr]
    if van.points:
        parts.append(_("%(n)s điểm") % {"n": van.points})
    return " · ".join(parts)


def _van_action(van: Van) -> str:
    if van.replaces_id:
        return _("Sửa ván %(seq)s: %(reason)s") % {"seq": van.seq, "reason": van.correction_reason}
    return _("Ghi ván %(seq)s") % {"seq": van.seq}


def _review_action(review: VanReview) -> str:
    if review.decision == VanReviewDecision.REJECT:
        return _("Bác ván %(seq)s: %(reason)s") % {"seq": review.van.seq, "reason": review.reason}
    return _("Xác nhận ván %(seq)s") % {"seq": review.van.seq} + (
        f" ({review.reason})" if review.reason else ""
    )


def _opened_detail(sitting: Sitting, rules: str) -> str:
    players = ", ".join(seat.name for seat in sitting.seats.all())
    return f"{sitting.get_game_display()} · {rules} · {sitting.get_mode_display()} · {players}"


def _settled(sitting: Sitting) -> tuple[str, str]:
    """Who settled the sitting up (the settlement transactions' author) and what was paid."""
    txns = list(sitting.settlements)  # type: ignore[attr-defined]
    who = next((person(t.created_by) for t in txns if t.created_by_id), NOBODY)
    lines = [
        _("%(reason)s (%(n)s khoản)") % {"reason": reason(t.reason), "n": t.lines // 2}
        for t in txns
        if t.lines
    ]
    return who, "; ".join(lines) or _("Không còn khoản nào phải trả.")


@dataclass
class _SittingRows:
    opened: list[Sitting]
    ended: list[Sitting]
    vans: list[Van]
    reviews: list[VanReview]

    def sitting_ids(self) -> set[int]:
        return (
            {s.pk for s in chain(self.opened, self.ended)}
            | {v.sitting_id for v in self.vans}
            | {r.van.sitting_id for r in self.reviews}
        )


def _sitting_rows(scope: QuerySet[Any], n: int, *, with_van: bool) -> _SittingRows:
    opened = list(
        Sitting.objects.filter(pk__in=scope)
        .select_related("created_by", "rules")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))
        .order_by("-created_at", "-id")[:n]
    )
    settlements = (
        LedgerTransaction.objects.filter(kind=TransactionKind.SETTLEMENT)
        .select_related("created_by")
        .annotate(lines=Count("postings"))
        .order_by("id")
    )
    ended = list(
        Sitting.objects.filter(pk__in=scope, ended_at__isnull=False)
        .prefetch_related(Prefetch("transactions", queryset=settlements, to_attr="settlements"))
        .order_by("-ended_at", "-id")[:n]
    )
    if not with_van:
        return _SittingRows(opened, ended, [], [])
    vans = list(
        Van.objects.filter(sitting_id__in=scope)
        .select_related("entered_by", "winner", "entered_player")
        .defer("record", "kiem_bai", "cuoc", "declared", "cards")
        .order_by("-created_at", "-id")[:n]
    )
    reviews = list(
        VanReview.objects.filter(van__sitting_id__in=scope)
        .select_related("reviewer", "van", "reviewer_player")
        .only(
            "decision",
            "reason",
            "created_at",
            "reviewer",
            "reviewer_player__name",
            "van__seq",
            "van__sitting_id",
        )
        .order_by("-created_at", "-id")[:n]
    )
    return _SittingRows(opened, ended, vans, reviews)


def sitting_entries(
    sittings: QuerySet[Sitting], *, n: int, labeller: Labeller | None = None, with_van: bool = True
) -> list[AuditEntry]:
    """At most ``n`` newest entries of each kind for ``sittings`` (a queryset, used as a subquery):
    opened, settled up and, ``with_van``, every ván version and every confirmation or rejection."""
    rows = _sitting_rows(sittings.values("pk"), n, with_van=with_van)
    ids = rows.sitting_ids()
    labels = dict(labeller(ids)) if labeller is not None and ids else {}
    authors = _authors(rows.vans)

    def where(sitting_id: int, what: str) -> str:
        label = labels.get(sitting_id)
        return f"{label} · {what}" if label else what

    rule_names = applied_rules_names({s.rules_id: s.rules for s in rows.opened}.values())
    out = [
        AuditEntry(
            s.created_at,
            person(s.created_by),
            pgettext("audit", "Mở canh bài"),
            labels.get(s.pk) or s.display_name,
            _opened_detail(s, rule_names[s.rules_id]),
            (0, s.pk),
        )
        for s in rows.opened
    ]
    for s in rows.ended:
        who, paid = _settled(s)
        out.append(
            AuditEntry(
                s.ended_at,
                who,
                _("Kết thúc canh bài, thanh toán"),  # type: ignore[arg-type]
                labels.get(s.pk) or s.display_name,
                paid,
                (3, s.pk),
            )
        )
    out += [
        AuditEntry(
            v.created_at,
            _with_player(
                person(v.entered_by) if v.entered_by_id else authors.get(v.pk, NOBODY), v.entered_player
            ),
            _van_action(v),
            where(v.sitting_id, _("Ván %(seq)s") % {"seq": v.seq}),
            _van_summary(v),
            (1, v.pk),
        )
        for v in rows.vans
    ]
    out += [
        AuditEntry(
            r.created_at,
            _with_player(person(r.reviewer), r.reviewer_player),
            _review_action(r),
            where(r.van.sitting_id, _("Ván %(seq)s") % {"seq": r.van.seq}),
            "",
            (2, r.pk),
        )
        for r in rows.reviews
    ]
    for source in _sitting_sources:
        out += source(sittings.values("pk"), n, labeller)
    return out


def sitting_audit(sitting: Sitting, *, offset: int = 0, limit: int = PAGE_SIZE) -> list[AuditEntry]:
    """The trail of one sitting: opened, every ván version, confirmations and rejections, settle-up."""
    entries = sitting_entries(Sitting.objects.filter(pk=sitting.pk), n=offset + limit)
    return merge([entries], offset=offset, limit=limit)


# -- roles (club and event) -------------------------------------------------------------------------


def role_entry(row: Any, *, place: str = "", rank: int = 4) -> AuditEntry:
    """One history row of a role (``+`` granted, ``-`` revoked, ``~`` changed).

    Who acted is the signed-in user of the request that made the change; outside a request (a
    command, a test) the history has no user, and a grant then names its ``granted_by``.
    """
    role, holder = row.get_role_display(), person(row.user)
    actor = row.history_user
    if row.history_type == "+":
        action = _("Cấp vai trò %(role)s cho %(holder)s") % {"role": role, "holder": holder} + place
        actor = actor or row.granted_by
    elif row.history_type == "-":
        action = _("Thu hồi vai trò %(role)s của %(holder)s") % {"role": role, "holder": holder} + place
    else:
        action = _("Đổi vai trò của %(holder)s: %(role)s") % {"holder": holder, "role": role} + place
    reason = row.history_change_reason or ""
    return AuditEntry(row.history_date, person(actor), action, holder, reason, (rank, row.history_id))


def club_audit(club: Club, *, offset: int = 0, limit: int = PAGE_SIZE) -> list[AuditEntry]:
    """A club's trail: roles granted and revoked, sittings opened and settled."""
    n = offset + limit
    roles = (
        ClubRole.history.filter(club_id=club.pk)
        .select_related("history_user", "user", "granted_by")
        .order_by("-history_date", "-history_id")[:n]
    )
    # The club's trail lists its canh opened and settled; each canh's own trail has its ván.
    sittings = sitting_entries(Sitting.objects.filter(club=club), n=n, with_van=False)
    others = [source(club, n) for source in _club_sources]
    return merge([[role_entry(r) for r in roles], sittings, *others], offset=offset, limit=limit)


# -- village rule sets ------------------------------------------------------------------------------


def with_previous(rows: QuerySet[Any], n: int) -> list[tuple[Any, Any]]:
    """The ``n`` newest history rows of ``rows``, each with the row before it of the same object
    (None for the first): 2 queries."""
    model = rows.model
    before = (
        model.objects.filter(id=OuterRef("id"), history_id__lt=OuterRef("history_id"))
        .order_by("-history_id")
        .values("history_id")[:1]
    )
    found = list(rows.annotate(prev_history_id=Subquery(before)).order_by("-history_date", "-history_id")[:n])
    previous = model.objects.in_bulk([r.prev_history_id for r in found if r.prev_history_id])
    return [(r, previous.get(r.prev_history_id)) for r in found]


def _shown(value: Any) -> str:
    if value is None or value == "":
        return _("(trống)")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _rules_changes(row: Any, prev: Any) -> list[str]:
    changes = [
        f"{label}: {_shown(getattr(prev, name))} → {_shown(getattr(row, name))}"
        for name, label in (("name", _("tên")), ("preset", _("bộ luật gốc")), ("description", _("ghi chú")))
        if getattr(prev, name) != getattr(row, name)
    ]
    old, new = prev.overrides or {}, row.overrides or {}
    changes += [
        f"{key}: {_shown(old.get(key))} → {_shown(new.get(key))}"
        for key in sorted(set(old) | set(new))
        if old.get(key) != new.get(key)
    ]
    return changes


def _rules_entry(row: Any, prev: Any) -> AuditEntry:
    name = f"{row.name} ({row.slug})"
    if row.history_type == "+" or prev is None:
        overrides = ", ".join(f"{k}: {_shown(v)}" for k, v in sorted((row.overrides or {}).items()))
        action, detail = (
            _("Tạo lệ làng %(name)s") % {"name": row.name},
            _("Bộ luật gốc %(preset)s") % {"preset": row.preset} + (f"; {overrides}" if overrides else ""),
        )
    elif row.history_type == "-":
        action, detail = _("Xóa lệ làng %(name)s") % {"name": row.name}, ""
    else:
        action, detail = (
            _("Đổi lệ làng %(name)s") % {"name": row.name},
            "; ".join(_rules_changes(row, prev)) or _("Lưu lại, không đổi gì."),
        )
    return AuditEntry(row.history_date, person(row.history_user), action, name, detail, (5, row.history_id))


def rules_audit(*, offset: int = 0, limit: int = PAGE_SIZE) -> list[AuditEntry]:
    """Every village rule set created, changed or deleted (staff: rule sets belong to no club)."""
    rows = with_previous(VillageRuleSet.history.select_related("history_user"), offset + limit)
    return merge([[_rules_entry(row, prev) for row, prev in rows]], offset=offset, limit=limit)
