"""An event's part of the backup file (``so-tom-backup``, :mod:`scoring.backup`): written by
:func:`event_backup` (the organisers' download and ``manage.py event_export``), restored by
:func:`event_restore` around the sittings the ledger restored, registered as the ``event`` kind
from :class:`tournaments.apps.TournamentsConfig`. The leaderboard is not in the file: it is
rebuilt from the restored ledger after the commit."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.apps import apps
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Min
from django.utils import timezone

from scoring.backup import (
    BackupError,
    Part,
    Restorer,
    backup_envelope,
    history_json,
    insert,
    iso,
    restore_history,
    when,
)
from scoring.engine import N_
from scoring.selectors.ledger import user_name
from tournaments import models as tm
from tournaments.console.backup import console_backup, console_restore, signal_catalogue
from tournaments.models import Event, Round, Table
from tournaments.selectors.sittings import event_sittings

__all__ = ["PART", "event_backup", "event_restore"]


# -- writing -----------------------------------------------------------------------------------------


def _console_of(t: Table) -> Any:
    try:
        return t.festival_table  # type: ignore[attr-defined]
    except ObjectDoesNotExist:
        return None


def _table_backup(t: Table) -> dict[str, Any]:
    return {
        "console": console_backup(c) if (c := _console_of(t)) else None,
        "number": t.number,
        "sitting": t.sitting_id,
        "started_at": iso(t.started_at),
        "ends_at": iso(t.ends_at),
        "closed_at": iso(t.closed_at),
        "closed_by": user_name(t.closed_by),
        "canh": [
            {"number": c.number, "sitting": c.sitting_id}
            for c in sorted(t.canh.all(), key=lambda c: c.number)
        ],
        # The links and PINs handed to scorekeepers (revoked ones too), so a festival moved to
        # another server mid-day keeps its phones working; the file is the organisers' only.
        "tokens": [
            {
                "secret": k.secret,
                "pin": k.pin,
                "label": k.label,
                "created_by": user_name(k.created_by),
                "created_at": iso(k.created_at),
                "revoked_at": iso(k.revoked_at),
                "revoked_by": user_name(k.revoked_by),
            }
            for k in sorted(t.tokens.all(), key=lambda k: k.pk)
        ],
    }


def _account(row: Any, name: str) -> str | None:
    """The username a history row names (None for an account deleted since: the row keeps its id)."""
    try:
        return user_name(getattr(row, name))
    except ObjectDoesNotExist:
        return None


def _history_backup(event: Event, where: dict[int, list[int]]) -> tuple[dict[str, Any], list[Any]]:
    """The event's own history (created, options changed, organisers added and removed) and its
    roles' (granted, changed, revoked: revoked roles are in no other part of the file), so the
    restored event's audit trail reads as the original's. Also the rule sets the history names.
    ``where``: each table's round and number, by id."""
    rows = list(
        Event.history.filter(id=event.pk)
        .select_related("history_user", "created_by", "rules")
        .order_by("history_id")
    )
    organisers: dict[int, list[str]] = defaultdict(list)
    links = (
        apps.get_model("tournaments", "HistoricalEvent_organisers")
        .objects.filter(history_id__in=[r.history_id for r in rows])
        .select_related("user")
        .order_by("m2m_history_id")
    )
    for link in links:
        organisers[link.history_id].append(link.user.username)
    people = {
        name: (lambda row, name=name: _account(row, name))
        for name in ("history_user", "created_by", "user", "granted_by")
    }
    events = history_json(rows, {**people, "rules": lambda row: row.rules.fingerprint})
    for item, row in zip(events, rows, strict=True):
        item["organisers"] = organisers[row.history_id]
    roles = history_json(
        tm.EventRole.history.filter(event_id=event.pk)
        .select_related("history_user", "user", "granted_by")
        .order_by("history_id"),
        {**people, "table": lambda row: where.get(row.table_id)},
    )
    return {"event": events, "roles": roles}, [r.rules for r in rows]


def event_backup(event: Event) -> dict[str, Any]:
    """The whole event in the backup format: the event, its people and roles, rounds, tables (each
    with its canh and scorekeeper links), every sitting with its ván and ledger, and the rule sets
    they were scored under."""
    regs = list(
        event.registrations.select_related(
            "player", "registered_by", "checked_in_by", "withdrawn_by"
        ).order_by("id")
    )
    rounds = list(
        Round.objects.filter(event=event)
        .prefetch_related(
            "tables__closed_by",
            "tables__canh",
            "tables__tokens__created_by",
            "tables__tokens__revoked_by",
            "tables__festival_table__trung_quan",
            "tables__festival_table__created_by",
            "tables__festival_table__signals__signal__club",
            "tables__festival_table__signals__created_by",
        )
        .order_by("number")
    )
    roles = (
        tm.EventRole.objects.filter(event=event)
        .select_related("user", "granted_by", "table__round")
        .order_by("pk")
    )
    history, history_rules = _history_backup(
        event, {t.pk: [r.number, t.number] for r in rounds for t in r.tables.all()}
    )
    body = {
        "event": {
            "name": event.name,
            "slug": event.slug,
            "kind": event.kind,
            "date": event.date.isoformat(),
            "lunar_label": event.lunar_label,
            "game": event.game,
            "rules": event.rules.fingerprint,
            "mode": event.mode,
            "is_public": event.is_public,
            "round_format": event.round_format,
            "van_per_round": event.van_per_round,
            "minutes_per_round": event.minutes_per_round,
            "van_per_sitting": event.van_per_sitting,
            "tie_breaks": event.tie_breaks,
            "confirmation_required": event.confirmation_required,
            "count_confirmed_only": event.count_confirmed_only,
            "organisers": list(event.organisers.values_list("username", flat=True)),
            "created_by": user_name(event.created_by),
            "created_at": iso(event.created_at),
            "finished_at": iso(event.finished_at),
            "roles": [
                {
                    "id": r.pk,
                    "user": user_name(r.user),
                    "role": r.role,
                    "granted_by": user_name(r.granted_by),
                    "created_at": iso(r.created_at),
                    "table": [r.table.round.number, r.table.number] if r.table_id else None,
                }
                for r in roles
            ],
            "registrations": [
                {
                    "player": r.player_id,
                    "team": r.team,
                    "status": r.status,
                    "token": r.token,
                    "created_at": iso(r.created_at),
                    "checked_in_at": iso(r.checked_in_at),
                    "withdrawn_at": iso(r.withdrawn_at),
                    "registered_by": user_name(r.registered_by),
                    "checked_in_by": user_name(r.checked_in_by),
                    "checked_in_own_link": r.checked_in_own_link,
                    "withdrawn_by": user_name(r.withdrawn_by),
                }
                for r in regs
            ],
            "rounds": [
                {
                    "number": r.number,
                    "method": r.method,
                    "remainder": r.remainder,
                    "seed": r.seed,
                    "byes": r.byes,
                    "created_at": iso(r.created_at),
                    "tables": [_table_backup(t) for t in r.tables.all()],
                }
                for r in rounds
            ],
            "history": history,
            "signal_catalogue": signal_catalogue(
                [c for r in rounds for t in r.tables.all() if (c := _console_of(t))]
            ),
        }
    }
    return backup_envelope(
        "event",
        body,
        event_sittings(event),
        extra_players=[r.player_id for r in regs],
        extra_rules=[event.rules, *history_rules],
    )


# -- restoring ---------------------------------------------------------------------------------------


def event_restore(e: Mapping[str, Any], restorer: Restorer) -> Any:
    """The event around the restored sittings: registrations, rounds, tables (and their canh)."""
    if tm.Event.objects.filter(slug=e["slug"]).exists():
        raise BackupError(
            N_("Đã có giải mang mã '{slug}': hãy khôi phục vào một cơ sở dữ liệu trống."), slug=e["slug"]
        )
    event = insert(
        tm.Event(
            name=e["name"],
            slug=e["slug"],
            kind=e["kind"],
            date=dt.date.fromisoformat(e["date"]),
            lunar_label=e["lunar_label"],
            game=e["game"],
            rules=restorer.snapshots[e["rules"]],
            mode=e["mode"],
            is_public=e["is_public"],
            round_format=e["round_format"],
            van_per_round=e["van_per_round"],
            minutes_per_round=e["minutes_per_round"],
            van_per_sitting=e.get("van_per_sitting", 0),
            tie_breaks=e["tie_breaks"],
            created_by=restorer.user(e.get("created_by")),
            created_at=when(e["created_at"]),
            finished_at=when(e.get("finished_at")),
            confirmation_required=bool(e.get("confirmation_required", False)),
            count_confirmed_only=bool(e.get("count_confirmed_only", False)),
        )
    )
    # The links themselves, not ``organisers.set``: that would write a history row dated now.
    tm.Event.organisers.through.objects.bulk_create(
        [
            tm.Event.organisers.through(event=event, user=restorer.user(name))
            for name in e.get("organisers", [])
        ]
    )
    tm.Leaderboard.objects.create(event=event)
    for r in e.get("registrations", []):
        insert(
            tm.Registration(
                event=event,
                player_id=r["player"],
                team=r["team"],
                status=r["status"],
                token=r["token"],
                created_at=when(r.get("created_at")) or timezone.now(),
                checked_in_at=when(r.get("checked_in_at")),
                withdrawn_at=when(r.get("withdrawn_at")),
                registered_by=restorer.user(r.get("registered_by")),
                checked_in_by=restorer.user(r.get("checked_in_by")),
                checked_in_own_link=bool(r.get("checked_in_own_link", False)),
                withdrawn_by=restorer.user(r.get("withdrawn_by")),
            )
        )
    tables: dict[tuple[int, int], Any] = {}
    for r in e.get("rounds", []):
        rnd = insert(
            tm.Round(
                event=event,
                number=r["number"],
                method=r["method"],
                remainder=r["remainder"],
                seed=r["seed"],
                byes=r["byes"],
                created_at=when(r.get("created_at")) or event.created_at,
            )
        )
        for t in r["tables"]:
            table = insert(
                tm.Table(
                    round=rnd,
                    number=t["number"],
                    sitting_id=t["sitting"],
                    event=event,
                    started_at=when(t["started_at"]),
                    ends_at=when(t.get("ends_at")),
                    closed_at=when(t.get("closed_at")),
                    closed_by=restorer.user(t.get("closed_by")),
                )
            )
            tables[(rnd.number, table.number)] = table
            for c in t.get("canh") or [{"number": 1, "sitting": t["sitting"]}]:  # files before canh were kept
                tm.TableSitting.objects.create(
                    table=table, sitting_id=c["sitting"], event=event, number=c["number"]
                )
            if t.get("console"):
                console_restore(t["console"], table, e.get("signal_catalogue", {}), restorer)
            for k in t.get("tokens", []):
                insert(
                    tm.ScorekeeperToken(
                        table=table,
                        secret=k["secret"],
                        pin=k["pin"],
                        label=k["label"],
                        created_by=restorer.user(k.get("created_by")),
                        created_at=when(k["created_at"]),
                        revoked_at=when(k.get("revoked_at")),
                        revoked_by=restorer.user(k.get("revoked_by")),
                    )
                )
    _restore_roles(e, event, tables, restorer)
    return event


def _restore_roles(
    e: Mapping[str, Any], event: Any, tables: Mapping[tuple[int, int], Any], restorer: Restorer
) -> None:
    """The event's roles, then its history and its roles'. A file written before the history was
    kept has none: each role it holds is then recorded as granted when and by whom the file says,
    and the event's creation is read from the event."""
    roles = e.get("roles", [])
    history = e.get("history")
    if history is None:
        roles = [{**data, "id": n} for n, data in enumerate(roles)]
        history = {
            "roles": [
                {
                    **data,
                    "history_type": "+",
                    "history_date": data["created_at"],
                    "history_user": data.get("granted_by"),
                }
                for data in roles
            ]
        }
    refs = {
        "history_user": restorer.user,
        "created_by": restorer.user,
        "user": restorer.user,
        "granted_by": restorer.user,
        "rules": lambda fingerprint: restorer.snapshots[fingerprint],
        "table": lambda where: tables[tuple(where)] if where else None,
    }

    def role(data: Mapping[str, Any]) -> Any:
        return insert(
            tm.EventRole(
                user=restorer.user(data["user"]),
                event=event,
                role=data["role"],
                table=refs["table"](data.get("table")),
                granted_by=restorer.user(data.get("granted_by")),
                created_at=when(data["created_at"]),
            )
        )

    # A role revoked before the backup has no row here: its history rows take an id that no row
    # can have (ids count from 1), one per role, below those of earlier restores.
    ids: dict[Any, int] = {}
    current = {r["id"] for r in roles}
    low = min(tm.EventRole.history.model.objects.aggregate(low=Min("id"))["low"] or 0, 0)
    for item in history.get("roles", []):
        if item["id"] not in current and item["id"] not in ids:
            ids[item["id"]] = low - 1 - len(ids)
    for data in roles:
        ids[data["id"]] = role(data).pk
    restore_history(
        tm.EventRole.history.model,
        history.get("roles", []),
        refs=refs,
        fixed=lambda item: {"id": ids[item["id"]], "event": event},
    )
    events = history.get("event", [])
    rows = restore_history(tm.Event.history.model, events, refs=refs, fixed=lambda item: {"id": event.pk})
    m2m = apps.get_model("tournaments", "HistoricalEvent_organisers")
    links = dict(tm.Event.organisers.through.objects.filter(event=event).values_list("user__username", "id"))
    m2m.objects.bulk_create(
        [
            # ``id`` is the link's; a link removed before the backup has none in this database (0).
            m2m(history=row, event=event, user=restorer.user(name), id=links.get(name, 0))
            for row, item in zip(rows, events, strict=True)
            for name in item.get("organisers", [])
        ]
    )


def _restore(document: Mapping[str, Any], restorer: Restorer) -> None:
    if document.get("kind") != "event":
        return
    event = event_restore(document["event"], restorer)
    restorer.event = (event.pk, event.slug)

    def rebuild() -> None:
        from tournaments.services.leaderboard import rebuild_leaderboard

        rebuild_leaderboard(event_id=event.pk, force=True)

    restorer.after.append(rebuild)


#: Registered by :meth:`tournaments.apps.TournamentsConfig.ready`.
PART = Part(name="tournaments.event", kinds=("event",), restore=_restore)
