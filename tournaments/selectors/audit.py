"""An event's audit trail (nhật ký) for its organisers: the event created and its options changed,
organisers added and removed, roles granted and revoked, registrations, check-ins and withdrawals, rounds
seated, tables closed, scorekeeper tokens issued and revoked, and the trail of every canh played
at its tables (ván entered, corrected, confirmed, rejected; settle-ups), merged newest first.

It also tells the sổ điểm's trail who entered a ván at a table without an account: the table's
scorekeeper token(s) live at that moment (:func:`token_authors`, registered on import).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.apps import apps
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from scoring.models import RuleSetSnapshot, Sitting, Van
from scoring.selectors.audit import (
    NOBODY,
    PAGE_SIZE,
    AuditEntry,
    merge,
    person,
    register_author_hook,
    role_entry,
    sitting_entries,
    with_previous,
)
from scoring.selectors.rules import applied_rules_names
from tournaments.models import (
    Event,
    EventRole,
    Registration,
    RegistrationStatus,
    Round,
    ScorekeeperToken,
    Table,
    TableSitting,
    TieBreak,
)

__all__ = ["event_audit", "register_event_source", "token_authors"]

#: (event, n) → at most n newest entries of each kind another app keeps about an event.
EventSource = Callable[[Event, int], list[AuditEntry]]
_event_sources: list[EventSource] = []


def register_event_source(source: EventSource) -> None:
    """Let another app (the online app: platform tokens, webhooks) add entries to an event's trail."""
    if source not in _event_sources:
        _event_sources.append(source)


#: Who checked in a player who used their own link (the QR code at the gate).
OWN_LINK = gettext_noop("Người chơi (mã QR của mình)")
#: The options whose changes the trail shows (``ledger_seq`` and the like are bookkeeping).
OPTIONS = (
    "name",
    "slug",
    "kind",
    "date",
    "lunar_label",
    "game",
    "rules",
    "mode",
    "is_public",
    "round_format",
    "van_per_round",
    "minutes_per_round",
    "van_per_sitting",
    "tie_breaks",
    "finished_at",
    "confirmation_required",
    "count_confirmed_only",
)


# -- who holds a table's token ------------------------------------------------------------------


def _token_name(token: ScorekeeperToken) -> str:
    return token.label or f"#{token.pk}"  # never the PIN: it is a secret


def token_authors(vans: Sequence[Van]) -> dict[int, str]:
    """Ván entered at a table without an account were entered with one of the table's tokens live
    at that moment: "mã ghi điểm <nhãn>" (or each of them, when several were live). 2 queries."""
    tables = dict(
        TableSitting.objects.filter(sitting_id__in={v.sitting_id for v in vans}).values_list(
            "sitting_id", "table_id"
        )
    )
    if not tables:
        return {}
    tokens: dict[int, list[ScorekeeperToken]] = defaultdict(list)
    for token in ScorekeeperToken.objects.filter(table_id__in=set(tables.values())).order_by("id"):
        tokens[token.table_id].append(token)
    found = {}
    for van in vans:
        live = [
            t
            for t in tokens.get(tables.get(van.sitting_id, 0), [])
            if t.created_at <= van.created_at and (t.revoked_at is None or t.revoked_at > van.created_at)
        ]
        used = [t for t in live if f"token:{t.pk}" == van.entered_grant]  # older ván do not name their token
        live = used or live
        if live:
            names = _(" hoặc ").join(_token_name(t) for t in live)
            found[van.pk] = _("mã ghi điểm %(names)s") % {"names": names}
    return found


register_author_hook(token_authors)


# -- the event's own history ----------------------------------------------------------------------


def _value(name: str, value: Any, rule_names: Mapping[int, str]) -> str:
    if value is None or value == "":
        return _("(trống)")
    if isinstance(value, bool):
        return _("có") if value else _("không")
    if name == "rules":
        return rule_names.get(value, f"#{value}")
    if name == "tie_breaks":
        labels = dict(TieBreak.choices)
        return ", ".join(str(labels.get(v, v)) for v in value)
    if name == "finished_at":
        return timezone.localtime(value).strftime("%H:%M %d/%m/%Y")
    if name == "date":
        return value.strftime("%d/%m/%Y")
    choices = dict(Event._meta.get_field(name).choices or ())
    return str(choices.get(value, value))


def _option_changes(row: Any, prev: Any, rule_names: Mapping[int, str]) -> list[str]:
    changes = []
    for name in OPTIONS:
        attname = Event._meta.get_field(name).attname
        old, new = getattr(prev, attname), getattr(row, attname)
        if old != new:
            label = _(str(Event._meta.get_field(name).verbose_name))
            changes.append(f"{label}: {_value(name, old, rule_names)} → {_value(name, new, rule_names)}")
    return changes


def _event_history(event: Event, n: int) -> list[AuditEntry]:
    """Created, options changed, organisers added and removed: about 4 queries."""
    rows = with_previous(Event.history.filter(id=event.pk).select_related("history_user", "created_by"), n)
    m2m = apps.get_model("tournaments", "HistoricalEvent_organisers")
    history_ids = {r.history_id for r, _ in rows} | {p.history_id for _, p in rows if p is not None}
    organisers: dict[int, dict[int, Any]] = defaultdict(dict)
    for link in m2m.objects.filter(history_id__in=history_ids).select_related("user"):
        organisers[link.history_id][link.user_id] = link.user
    rules_ids = {x.rules_id for pair in rows for x in pair if x is not None}
    snapshots = RuleSetSnapshot.objects.in_bulk(rules_ids) if len(rules_ids) > 1 else {}
    rule_names = applied_rules_names(snapshots.values()) if snapshots else {}
    out = []
    for row, prev in rows:
        order = (6, row.history_id)
        if row.history_type == "+":
            who = person(row.history_user or row.created_by)
            out.append(
                AuditEntry(row.history_date, who, pgettext("audit", "Tạo giải"), event.name, "", order)
            )
            continue
        if prev is None:  # the oldest row of an event older than its history: nothing to compare
            continue
        who = person(row.history_user)
        changes = _option_changes(row, prev, rule_names)
        if changes:
            out.append(
                AuditEntry(
                    row.history_date, who, _("Đổi cài đặt giải"), event.name, "; ".join(changes), order
                )
            )
        now, before = organisers[row.history_id], organisers[prev.history_id]
        out += [
            AuditEntry(
                row.history_date,
                who,
                _("Thêm %(who)s vào ban tổ chức") % {"who": person(u)},
                event.name,
                "",
                order,
            )
            for uid, u in now.items()
            if uid not in before
        ]
        out += [
            AuditEntry(
                row.history_date,
                who,
                _("Bỏ %(who)s khỏi ban tổ chức") % {"who": person(u)},
                event.name,
                "",
                order,
            )
            for uid, u in before.items()
            if uid not in now
        ]
    if len(rows) < n and not any(r.history_type == "+" for r, _ in rows):
        out.append(
            AuditEntry(
                event.created_at,
                person(event.created_by),
                pgettext("audit", "Tạo giải"),
                event.name,
                "",
                (6, 0),
            )
        )
    if event.finished_at is not None:
        out.append(
            AuditEntry(event.finished_at, NOBODY, _("Chốt kết quả chính thức"), event.name, "", (6, 0))
        )
    return out


def _role_entries(event: Event, n: int) -> list[AuditEntry]:
    rows = (
        EventRole.history.filter(event_id=event.pk)
        .select_related("history_user", "user", "granted_by", "table__round")
        .order_by("-history_date", "-history_id")[:n]
    )
    return [
        role_entry(
            r,
            place=" (%s)"
            % (
                _("vòng %(round)s, chiếu %(table)s")
                % {"round": r.table.round.number, "table": r.table.number}
            )
            if r.table
            else "",
            rank=7,
        )
        for r in rows
    ]


# -- people, rounds, tables, tokens ---------------------------------------------------------------


def _registration_entries(event: Event, n: int) -> list[AuditEntry]:
    regs = Registration.objects.filter(event=event).select_related(
        "player", "registered_by", "checked_in_by", "withdrawn_by"
    )
    out = []
    for reg in regs.order_by("-created_at", "-id")[:n]:
        notes = [reg.team] if reg.team else []
        if reg.status == RegistrationStatus.WITHDRAWN:
            notes.append(_("hiện đã rút khỏi giải"))
        out.append(
            AuditEntry(
                reg.created_at,
                person(reg.registered_by),
                _("Đăng ký %(name)s") % {"name": reg.player.name},
                reg.player.name,
                " · ".join(notes),
                (8, reg.pk),
            )
        )
    out += [
        AuditEntry(
            reg.checked_in_at,
            _(OWN_LINK) if reg.checked_in_own_link else person(reg.checked_in_by),  # type: ignore[arg-type]
            _("Điểm danh %(name)s") % {"name": reg.player.name},
            reg.player.name,
            reg.team,
            (9, reg.pk),
        )
        for reg in regs.filter(checked_in_at__isnull=False).order_by("-checked_in_at", "-id")[:n]
    ]
    out += [
        AuditEntry(
            reg.withdrawn_at,
            person(reg.withdrawn_by),
            _("Rút %(name)s khỏi giải") % {"name": reg.player.name},  # type: ignore[arg-type]
            reg.player.name,
            reg.team,
            (14, reg.pk),
        )
        for reg in regs.filter(withdrawn_at__isnull=False).order_by("-withdrawn_at", "-id")[:n]
    ]
    return out


def _table_name(table: Table) -> str:
    return _("Vòng %(round)s · chiếu %(table)s") % {"round": table.round.number, "table": table.number}


def _play_entries(event: Event, n: int) -> list[AuditEntry]:
    rounds = list(
        Round.objects.filter(event=event)
        .order_by("-created_at", "-id")
        .prefetch_related(Prefetch("tables", Table.objects.select_related("sitting__created_by")))[:n]
    )
    out = []
    for r in rounds:
        tables = list(r.tables.all())
        # Who seated the round opened its tables' canh (the round has no author of its own).
        who = next((person(t.sitting.created_by) for t in tables if t.sitting.created_by_id), NOBODY)
        out.append(
            AuditEntry(
                r.created_at,
                who,
                _("Xếp chỗ vòng %(round)s") % {"round": r.number},
                _("Vòng %(round)s") % {"round": r.number},
                _("%(method)s · %(n)s chiếu") % {"method": _(r.get_method_display()), "n": len(tables)},
                (10, r.pk),
            )
        )
    closed = Table.objects.filter(event=event, closed_at__isnull=False).select_related("round", "closed_by")
    out += [
        AuditEntry(
            t.closed_at, person(t.closed_by), pgettext("audit", "Đóng chiếu"), _table_name(t), "", (11, t.pk)
        )  # type: ignore[arg-type]
        for t in closed.order_by("-closed_at", "-id")[:n]
    ]
    tokens = ScorekeeperToken.objects.filter(table__event=event).select_related(
        "created_by", "revoked_by", "table__round"
    )
    out += [
        AuditEntry(
            t.created_at,
            person(t.created_by),
            _("Cấp mã ghi điểm %(name)s") % {"name": _token_name(t)},
            _table_name(t.table),
            "",
            (12, t.pk),
        )
        for t in tokens.order_by("-created_at", "-id")[:n]
    ]
    out += [
        AuditEntry(
            t.revoked_at,
            person(t.revoked_by),
            _("Thu hồi mã ghi điểm %(name)s") % {"name": _token_name(t)},  # type: ignore[arg-type]
            _table_name(t.table),
            "",
            (13, t.pk),
        )
        for t in tokens.filter(revoked_at__isnull=False).order_by("-revoked_at", "-id")[:n]
    ]
    return out


def _canh_labels(sitting_ids: set[int]) -> dict[int, str]:
    canh = TableSitting.objects.filter(sitting_id__in=sitting_ids).select_related("table__round")
    return {
        c.sitting_id: _("%(table)s · canh %(n)s") % {"table": _table_name(c.table), "n": c.number}
        for c in canh
    }


def event_audit(event: Event, *, offset: int = 0, limit: int = PAGE_SIZE) -> list[AuditEntry]:
    """The event's whole trail, newest first, one page (a fixed number of queries per page)."""
    n = offset + limit
    sittings = Sitting.objects.filter(event_canh__event=event)
    return merge(
        [
            _event_history(event, n),
            _role_entries(event, n),
            _registration_entries(event, n),
            _play_entries(event, n),
            sitting_entries(sittings, n=n, labeller=_canh_labels),
            *(source(event, n) for source in _event_sources),
        ],
        offset=offset,
        limit=limit,
    )
