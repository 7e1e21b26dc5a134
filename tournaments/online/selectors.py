"""Reads of the online app: the tokens and webhooks of a club or an event for their pages, a hook's
delivery log, and what the audit trails show (registered with the sổ điểm's and the event's
trails on import): a sitting imported whole (who, from which platform, with which token), tokens
created and revoked, webhooks registered and switched off."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from scoring.models import Club
from scoring.selectors.audit import (
    AuditEntry,
    Labeller,
    person,
    register_club_source,
    register_sitting_source,
)
from tournaments.models import Event
from tournaments.online.models import PlatformToken, SittingImport, Webhook, WebhookDelivery
from tournaments.selectors.audit import register_event_source

__all__ = ["deliveries", "hooks_of", "owner_entries", "tokens_of"]

#: Deliveries shown on a hook's log page (the newest).
LOG_SIZE = 50


def tokens_of(*, club: Club | None = None, event: Event | None = None) -> QuerySet[PlatformToken]:
    found = PlatformToken.objects.select_related("created_by", "revoked_by")
    return found.filter(club=club) if club is not None else found.filter(event=event)


def hooks_of(*, club: Club | None = None, event: Event | None = None) -> QuerySet[Webhook]:
    found = Webhook.objects.select_related("created_by", "disabled_by")
    return found.filter(club=club) if club is not None else found.filter(event=event)


def deliveries(hook: Webhook, limit: int = LOG_SIZE) -> list[WebhookDelivery]:
    return list(WebhookDelivery.objects.filter(webhook=hook).defer("body").order_by("-id")[:limit])


# -- audit ------------------------------------------------------------------------------------------


def _token_name(token: PlatformToken) -> str:
    return f"{token.label} ({token.prefix}…, {token.get_access_display()})"


def _rank(kind: int, pk: int) -> tuple[int, int]:
    return (20 + kind, pk)


def owner_entries(n: int, *, club: Club | None = None, event: Event | None = None) -> list[AuditEntry]:
    """Tokens created and revoked, webhooks registered and switched off, of a club or an event (the
    ``n`` newest of each kind; 2 queries: a place holds a handful of tokens and webhooks)."""
    subject = club.name if club is not None else event.name  # type: ignore[union-attr]
    tokens = list(tokens_of(club=club, event=event).order_by("-created_at", "-id"))
    hooks = list(hooks_of(club=club, event=event).order_by("-created_at", "-id"))
    revoked = sorted((t for t in tokens if t.revoked_at), key=lambda t: (t.revoked_at, t.pk), reverse=True)
    disabled = sorted((h for h in hooks if h.disabled_at), key=lambda h: (h.disabled_at, h.pk), reverse=True)
    out = [
        AuditEntry(
            t.created_at,
            person(t.created_by),
            gettext("Tạo mã nền tảng %(name)s") % {"name": _token_name(t)},
            subject,
            "",
            _rank(0, t.pk),
        )
        for t in tokens[:n]
    ]
    out += [
        AuditEntry(
            t.revoked_at,
            person(t.revoked_by),  # type: ignore[arg-type]
            gettext("Thu hồi mã nền tảng %(name)s") % {"name": _token_name(t)},
            subject,
            "",
            _rank(1, t.pk),
        )
        for t in revoked[:n]
    ]
    out += [
        AuditEntry(
            h.created_at,
            person(h.created_by),
            gettext("Đăng ký webhook %(url)s") % {"url": h.url},
            subject,
            ", ".join(h.events),
            _rank(2, h.pk),
        )
        for h in hooks[:n]
    ]
    out += [
        AuditEntry(
            h.disabled_at,
            person(h.disabled_by),
            gettext("Tắt webhook %(url)s") % {"url": h.url},  # type: ignore[arg-type]
            subject,
            "",
            _rank(3, h.pk),
        )
        for h in disabled[:n]
    ]
    return out


def import_entries(sittings: QuerySet[Any], n: int, labeller: Labeller | None) -> list[AuditEntry]:
    """A sitting imported whole: who imported it, from which platform, through which token."""
    rows = list(
        SittingImport.objects.filter(sitting_id__in=sittings)
        .select_related("imported_by", "token", "sitting")
        .order_by("-created_at", "-id")[:n]
    )
    labels = dict(labeller({r.sitting_id for r in rows})) if labeller is not None and rows else {}
    out = []
    for row in rows:
        action = gettext("Nhập cả canh bài từ nền tảng %(platform)s (%(count)s ván)") % {
            "platform": row.platform,
            "count": row.van_count,
        }
        detail = gettext("bằng mã nền tảng %(name)s") % {"name": _token_name(row.token)} if row.token else ""
        out.append(
            AuditEntry(
                row.created_at,
                person(row.imported_by),
                action,
                labels.get(row.sitting_id) or str(row.sitting),
                detail,
                _rank(4, row.pk),
            )
        )
    return out


def club_entries(club: Club, n: int) -> list[AuditEntry]:
    return owner_entries(n, club=club)


def event_entries(event: Event, n: int) -> list[AuditEntry]:
    return owner_entries(n, event=event)


register_sitting_source(import_entries)
register_club_source(club_entries)
register_event_source(event_entries)
