"""Restoring a backup (format ``so-tom-backup`` v1, written by :mod:`scoring.reports.backup` and,
for a whole event, ``tournaments.reports.event_backup``) into a database that does not hold it.

Everything is written in one transaction, with the ids and timestamps of the backup, so every
balance, every ván version and every history entry reads back equal; the ledger's own triggers
check each restored transaction at commit (zero-sum, reversals, pots ≥ 0). Derived numbers are
not in the file: the event's leaderboard is rebuilt from the restored ledger. Users are restored
by name only, without a password (an organiser sets one) and without staff rights.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.models import Min
from django.utils import timezone

from scoring.engine.errors import EngineError
from scoring.engine.rules import RuleSet
from scoring.models import (
    Club,
    Hoi,
    LedgerTransaction,
    Player,
    Posting,
    RuleSetSnapshot,
    Seat,
    Sitting,
    Van,
    VanReview,
    VanStatus,
)

__all__ = ["FORMAT", "VERSION", "Restored", "backup_restore"]

FORMAT = "so-tom-backup"
VERSION = 1


class BackupError(EngineError):
    """The file is not a backup this version can restore, or the database already holds it."""


@dataclass(frozen=True, slots=True)
class Restored:
    kind: str
    sittings: int
    van: int
    transactions: int
    event_id: int | None = None
    event_slug: str | None = None


def _when(value: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value) if value else None


def _insert(obj: models.Model) -> models.Model:
    """INSERT exactly these values (ids and ``auto_now_add`` timestamps of the backup kept)."""
    obj.save_base(raw=True, force_insert=True)
    return obj


def _restore_history(model: type[models.Model], items: list[Mapping[str, Any]], *,
                     refs: Mapping[str, Callable[[Any], Any]], fixed: Callable[[Mapping[str, Any]], dict[str, Any]],
                     ) -> list[models.Model]:
    """History rows written by ``history_json``, in order (so their new ``history_id`` keep it):
    plain fields as written, the foreign keys in ``refs`` resolved from what the file names, and
    ``fixed(item)``'s values (the object's id here, the event) over them."""
    rows = []
    for item in items:
        values: dict[str, Any] = {}
        for f in model._meta.concrete_fields:
            if f.name == "history_id" or f.name not in item:
                continue
            raw = item[f.name]
            values[f.name] = refs[f.name](raw) if f.is_relation else (None if raw is None else f.to_python(raw))
        rows.append(_insert(model(**{**values, **fixed(item)})))
    return rows


class _Restorer:
    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc
        self.users: dict[str, Any] = {}
        self.snapshots: dict[str, RuleSetSnapshot] = {}
        self.clubs: dict[str, Club] = {}

    # -- references -------------------------------------------------------------------------------

    def user(self, name: str | None) -> Any:
        if not name:
            return None
        if name not in self.users:
            user, created = get_user_model().objects.get_or_create(username=name)
            if created:
                user.set_unusable_password()
                user.save(update_fields=["password"])
            self.users[name] = user
        return self.users[name]

    def rules(self) -> None:
        for fingerprint, data in self.doc.get("rule_sets", {}).items():
            if RuleSet.from_dict(data["spec"]).fingerprint != fingerprint:
                raise BackupError(f"Bộ luật {fingerprint} trong bản sao lưu không khớp với nội dung của nó.")
            self.snapshots[fingerprint], _ = RuleSetSnapshot.objects.get_or_create(
                fingerprint=fingerprint, defaults={"preset": data["preset"], "spec": data["spec"]})

    def people(self) -> None:
        for c in self.doc.get("clubs", []):
            found = Club.objects.filter(slug=c["slug"]).first()
            if found is not None and found.pk != c["id"]:
                raise BackupError(f"Làng '{c['slug']}' đã có với mã số khác.")
            self.clubs[c["slug"]] = found or Club.objects.create(id=c["id"], name=c["name"], slug=c["slug"],
                                                                 kind=c["kind"])
        for p in self.doc.get("players", []):
            found = Player.objects.filter(pk=p["id"]).first()
            if found is not None and found.name != p["name"]:
                raise BackupError(f"Người chơi số {p['id']} đã có với tên khác ({found.name}).")
            if found is None:
                Player.objects.create(id=p["id"], name=p["name"], club=self.club(p.get("club")))

    def club(self, slug: str | None) -> Club | None:
        """A club of the file (or, for a sitting's club the file does not describe, by its slug)."""
        if not slug:
            return None
        if slug not in self.clubs:
            self.clubs[slug], _ = Club.objects.get_or_create(slug=slug, defaults={"name": slug})
        return self.clubs[slug]

    # -- sittings -------------------------------------------------------------------------------------

    def sitting(self, s: Mapping[str, Any]) -> tuple[int, int]:
        sitting = _insert(Sitting(
            id=s["id"], game=s["game"], rules=self.snapshots[s["rules"]], mode=s["mode"], title=s["title"],
            club=self.club(s.get("club")), created_by=self.user(s.get("created_by")),
            created_at=_when(s["created_at"]), ended_at=_when(s.get("ended_at")), final_at=_when(s.get("final_at")),
            needs_confirmation=bool(s.get("needs_confirmation", False)),
        ))
        seats = {
            seat["position"]: Seat.objects.create(sitting=sitting, player_id=seat["player"],
                                                  position=seat["position"], name=seat["name"])
            for seat in s["seats"]
        }
        Hoi.objects.bulk_create(Hoi(sitting=sitting, **h) for h in s.get("hoi", []))
        for v in sorted(s["van"], key=lambda v: v["id"]):
            _insert(Van(
                id=v["id"], sitting=sitting, seq=v["seq"], record=v["record"], cards=v["cards"] or "",
                outcome=v["outcome"], winner=seats[v["winner"]] if v.get("winner") else None,
                fault=v["fault"] or "", cuoc=v["cuoc"], declared=v["declared"], streak=v["streak"],
                points=v["points"], kiem_bai=v["kiem_bai"], is_current=v["is_current"], replaces_id=v["replaces"],
                correction_reason=v["correction_reason"] or "", entered_by=self.user(v.get("entered_by")),
                created_at=_when(v["created_at"]), status=v.get("status") or VanStatus.NOT_NEEDED,
                confirmed_by=self.user(v.get("confirmed_by")), confirmed_at=_when(v.get("confirmed_at")),
            ))
            for r in v.get("reviews", []):
                _insert(VanReview(van_id=v["id"], decision=r["decision"], reviewer=self.user(r["reviewer"]),
                                  submitter=self.user(r.get("submitter")), reason=r.get("reason") or "",
                                  created_at=_when(r["created_at"])))
        for t in sorted(s["transactions"], key=lambda t: t["id"]):
            txn = _insert(LedgerTransaction(
                id=t["id"], sitting=sitting, van_id=t["van"], kind=t["kind"], reason=t["reason"],
                reverses_id=t["reverses"], created_by=self.user(t.get("created_by")), created_at=_when(t["created_at"]),
            ))
            Posting.objects.bulk_create(
                Posting(transaction=txn, sitting=sitting, account=p["account"], amount=p["amount"], line=p["line"],
                        why=p["why"], seat=seats[p["seat"]] if p.get("seat") else None)
                for p in t["postings"]
            )
        return len(s["van"]), len(s["transactions"])

    def refuse_if_present(self) -> None:
        ids = [s["id"] for s in self.doc["sittings"]]
        van = [v["id"] for s in self.doc["sittings"] for v in s["van"]]
        txns = [t["id"] for s in self.doc["sittings"] for t in s["transactions"]]
        if (Sitting.objects.filter(pk__in=ids).exists() or Van.objects.filter(pk__in=van).exists()
                or LedgerTransaction.objects.filter(pk__in=txns).exists()):
            raise BackupError("Cơ sở dữ liệu này đã có những canh bài, ván hoặc bút toán của bản sao lưu: "
                              "hãy khôi phục vào một cơ sở dữ liệu trống.")


def _restore_event(e: Mapping[str, Any], restorer: _Restorer) -> Any:
    """The event around the restored sittings: registrations, rounds, tables (and their canh)."""
    from tournaments import models as tm

    if tm.Event.objects.filter(slug=e["slug"]).exists():
        raise BackupError(f"Đã có giải mang mã '{e['slug']}': hãy khôi phục vào một cơ sở dữ liệu trống.")
    event = _insert(tm.Event(
        name=e["name"], slug=e["slug"], kind=e["kind"], date=dt.date.fromisoformat(e["date"]),
        lunar_label=e["lunar_label"], game=e["game"], rules=restorer.snapshots[e["rules"]], mode=e["mode"],
        is_public=e["is_public"], round_format=e["round_format"], van_per_round=e["van_per_round"],
        minutes_per_round=e["minutes_per_round"], van_per_sitting=e.get("van_per_sitting", 0),
        tie_breaks=e["tie_breaks"], created_by=restorer.user(e.get("created_by")), created_at=_when(e["created_at"]),
        finished_at=_when(e.get("finished_at")), confirmation_required=bool(e.get("confirmation_required", False)),
        count_confirmed_only=bool(e.get("count_confirmed_only", False)),
    ))
    # The links themselves, not ``organisers.set``: that would write a history row dated now.
    tm.Event.organisers.through.objects.bulk_create(
        [tm.Event.organisers.through(event=event, user=restorer.user(name)) for name in e.get("organisers", [])])
    tm.Leaderboard.objects.create(event=event)
    for r in e.get("registrations", []):
        _insert(tm.Registration(event=event, player_id=r["player"], team=r["team"], status=r["status"],
                                token=r["token"], created_at=_when(r.get("created_at")) or timezone.now(),
                                checked_in_at=_when(r.get("checked_in_at")), withdrawn_at=_when(r.get("withdrawn_at")),
                                registered_by=restorer.user(r.get("registered_by")),
                                checked_in_by=restorer.user(r.get("checked_in_by")),
                                checked_in_own_link=bool(r.get("checked_in_own_link", False)),
                                withdrawn_by=restorer.user(r.get("withdrawn_by"))))
    tables: dict[tuple[int, int], Any] = {}
    for r in e.get("rounds", []):
        rnd = _insert(tm.Round(event=event, number=r["number"], method=r["method"], remainder=r["remainder"],
                               seed=r["seed"], byes=r["byes"], created_at=_when(r.get("created_at")) or event.created_at))
        for t in r["tables"]:
            table = _insert(tm.Table(round=rnd, number=t["number"], sitting_id=t["sitting"], event=event,
                                     started_at=_when(t["started_at"]), ends_at=_when(t.get("ends_at")),
                                     closed_at=_when(t.get("closed_at")), closed_by=restorer.user(t.get("closed_by"))))
            tables[(rnd.number, table.number)] = table
            for c in t.get("canh") or [{"number": 1, "sitting": t["sitting"]}]:  # files before canh were kept
                tm.TableSitting.objects.create(table=table, sitting_id=c["sitting"], event=event, number=c["number"])
            if t.get("console"):
                _restore_console(t["console"], table, e.get("signal_catalogue", {}), restorer)
            for k in t.get("tokens", []):
                _insert(tm.ScorekeeperToken(
                    table=table, secret=k["secret"], pin=k["pin"], label=k["label"],
                    created_by=restorer.user(k.get("created_by")), created_at=_when(k["created_at"]),
                    revoked_at=_when(k.get("revoked_at")), revoked_by=restorer.user(k.get("revoked_by"))))
    _restore_roles(e, event, tables, restorer)
    return event


def _restore_console(c: Mapping[str, Any], table: Any, catalogue: Mapping[str, Any], restorer: _Restorer) -> None:
    """A chiếu's Trung Quân console: its state and signals. A signal missing from this database
    (a village's own) is added as the file describes it."""
    from tournaments.console.models import FestivalTable, Signal, SignalEvent

    console = _insert(FestivalTable(
        sitting_id=c["sitting"], event_table=table, name=c["name"], trung_quan=restorer.user(c.get("trung_quan")),
        van_seq=c["van_seq"], dealer=c.get("dealer"), turn=c.get("turn"), noc_left=c["noc_left"],
        van_started_at=_when(c.get("van_started_at")), announcement=c.get("announcement"),
        created_by=restorer.user(c.get("created_by")), created_at=_when(c["created_at"])))
    signals: dict[str, Any] = {}
    for e in c.get("signals", []):
        slug = e["signal"]
        if slug not in signals:
            found = Signal.objects.filter(slug=slug).first()
            if found is None:
                if slug not in catalogue:
                    raise BackupError(f"Bản sao lưu dùng hiệu '{slug}' mà không mô tả nó.")
                found = Signal.objects.create(slug=slug, **{**catalogue[slug], "club": restorer.club(catalogue[slug]["club"])})
            signals[slug] = found
        _insert(SignalEvent(table=console, sitting_id=e["sitting"], van_seq=e["van_seq"], seat=e["seat"],
                            signal=signals[slug], noc_left=e["noc_left"], created_by=restorer.user(e.get("created_by")),
                            created_at=_when(e["created_at"]), idempotency_key=e.get("idempotency_key", "")))


def _restore_roles(e: Mapping[str, Any], event: Any, tables: Mapping[tuple[int, int], Any],
                   restorer: _Restorer) -> None:
    """The event's roles, then its history and its roles'. A file written before the history was
    kept has none: each role it holds is then recorded as granted when and by whom the file says,
    and the event's creation is read from the event."""
    from tournaments import models as tm

    roles = e.get("roles", [])
    history = e.get("history")
    if history is None:
        roles = [{**data, "id": n} for n, data in enumerate(roles)]
        history = {"roles": [{**data, "history_type": "+", "history_date": data["created_at"],
                              "history_user": data.get("granted_by")} for data in roles]}
    refs = {"history_user": restorer.user, "created_by": restorer.user, "user": restorer.user,
            "granted_by": restorer.user, "rules": lambda fingerprint: restorer.snapshots[fingerprint],
            "table": lambda where: tables[tuple(where)] if where else None}

    def role(data: Mapping[str, Any]) -> Any:
        return _insert(tm.EventRole(user=restorer.user(data["user"]), event=event, role=data["role"],
                                    table=refs["table"](data.get("table")), granted_by=restorer.user(data.get("granted_by")),
                                    created_at=_when(data["created_at"])))

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
    _restore_history(tm.EventRole.history.model, history.get("roles", []), refs=refs,
                     fixed=lambda item: {"id": ids[item["id"]], "event": event})
    events = history.get("event", [])
    rows = _restore_history(tm.Event.history.model, events, refs=refs, fixed=lambda item: {"id": event.pk})
    m2m = apps.get_model("tournaments", "HistoricalEvent_organisers")
    links = dict(tm.Event.organisers.through.objects.filter(event=event).values_list("user__username", "id"))
    m2m.objects.bulk_create([
        # ``id`` is the link's; a link removed before the backup has none in this database (0).
        m2m(history=row, event=event, user=restorer.user(name), id=links.get(name, 0))
        for row, item in zip(rows, events, strict=True) for name in item.get("organisers", [])
    ])


def _reset_sequences(model_list: list[type[models.Model]]) -> None:
    """Restored rows carry their own ids: move the id sequences past them."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), model_list):
            cursor.execute(sql)


def backup_restore(*, document: Mapping[str, Any]) -> Restored:
    """Restore a backup document (a sitting's or an event's) into this database; one transaction."""
    if not isinstance(document, Mapping) or (document.get("format"), document.get("version")) != (FORMAT, VERSION):
        raise BackupError(f"Đây không phải bản sao lưu Sổ Tôm ({FORMAT} phiên bản {VERSION}).")
    kind = document.get("kind")
    if kind not in ("sitting", "event"):
        raise BackupError(f"Loại bản sao lưu không rõ: {kind!r}.")
    with transaction.atomic():
        restorer = _Restorer(document)
        restorer.refuse_if_present()
        restorer.rules()
        restorer.people()
        counts = [restorer.sitting(s) for s in sorted(document["sittings"], key=lambda s: s["id"])]
        event = None
        if kind == "event":
            event = _restore_event(document["event"], restorer)
        elif document.get("console"):
            _restore_console(document["console"], None, document.get("signal_catalogue", {}), restorer)
        _reset_sequences([Club, Player, Sitting, Van, LedgerTransaction])
    if event is not None:
        from tournaments.services.leaderboard import rebuild_leaderboard

        rebuild_leaderboard(event_id=event.pk, force=True)
    return Restored(kind, len(counts), sum(v for v, _ in counts), sum(t for _, t in counts),
                    event.pk if event else None, event.slug if event else None)
