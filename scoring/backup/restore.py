"""Restoring a backup (format ``so-tom-backup`` v1, written by :mod:`scoring.backup.write` and, for a
whole event, ``tournaments.backup.event_backup``) into a database that does not hold it. This module
restores the ledger's part (rule sets, people, sittings); each registered part
(:mod:`scoring.backup.parts`) restores its own after it, in the same transaction.

Everything is written in one transaction, with the ids and timestamps of the backup, so every
balance, every ván version and every history entry reads back equal; the ledger's own triggers
check each restored transaction at commit (zero-sum, reversals, pots ≥ 0). Derived numbers are
not in the file: the event's leaderboard is rebuilt from the restored ledger. Users are restored
by name only, without a password (an organiser sets one) and without staff rights.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, models, transaction

from scoring.backup.format import FORMAT, VERSION, BackupError, insert, when
from scoring.backup.parts import kinds, parts
from scoring.engine import N_, RuleSet
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

__all__ = ["Restored", "Restorer", "backup_restore"]


@dataclass(frozen=True, slots=True)
class Restored:
    kind: str
    sittings: int
    van: int
    transactions: int
    event_id: int | None = None
    event_slug: str | None = None


class Restorer:
    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc
        self.users: dict[str, Any] = {}
        self.snapshots: dict[str, RuleSetSnapshot] = {}
        self.clubs: dict[str, Club] = {}
        #: Set by the part that restored an event: its id and slug.
        self.event: tuple[int, str] | None = None
        #: Work for after the commit (an event's leaderboard is rebuilt from the restored ledger).
        self.after: list[Callable[[], Any]] = []

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
                raise BackupError(
                    N_("Bộ luật {fingerprint} trong bản sao lưu không khớp với nội dung của nó."),
                    fingerprint=fingerprint,
                )
            self.snapshots[fingerprint], _ = RuleSetSnapshot.objects.get_or_create(
                fingerprint=fingerprint, defaults={"preset": data["preset"], "spec": data["spec"]}
            )

    def people(self) -> None:
        for c in self.doc.get("clubs", []):
            found = Club.objects.filter(slug=c["slug"]).first()
            if found is not None and found.pk != c["id"]:
                raise BackupError(N_("Làng '{slug}' đã có với mã số khác."), slug=c["slug"])
            self.clubs[c["slug"]] = found or Club.objects.create(
                id=c["id"], name=c["name"], slug=c["slug"], kind=c["kind"]
            )
        for p in self.doc.get("players", []):
            found = Player.objects.filter(pk=p["id"]).first()
            if found is not None and found.name != p["name"]:
                raise BackupError(
                    N_("Người chơi số {id} đã có với tên khác ({name})."), id=p["id"], name=found.name
                )
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
        sitting = insert(
            Sitting(
                id=s["id"],
                game=s["game"],
                rules=self.snapshots[s["rules"]],
                mode=s["mode"],
                title=s["title"],
                club=self.club(s.get("club")),
                created_by=self.user(s.get("created_by")),
                created_at=when(s["created_at"]),
                ended_at=when(s.get("ended_at")),
                final_at=when(s.get("final_at")),
                needs_confirmation=bool(s.get("needs_confirmation", False)),
            )
        )
        seats = {
            seat["position"]: Seat.objects.create(
                sitting=sitting, player_id=seat["player"], position=seat["position"], name=seat["name"]
            )
            for seat in s["seats"]
        }
        Hoi.objects.bulk_create(Hoi(sitting=sitting, **h) for h in s.get("hoi", []))
        for v in sorted(s["van"], key=lambda v: v["id"]):
            insert(
                Van(
                    id=v["id"],
                    sitting=sitting,
                    seq=v["seq"],
                    record=v["record"],
                    cards=v["cards"] or "",
                    outcome=v["outcome"],
                    winner=seats[v["winner"]] if v.get("winner") else None,
                    fault=v["fault"] or "",
                    cuoc=v["cuoc"],
                    declared=v["declared"],
                    streak=v["streak"],
                    points=v["points"],
                    kiem_bai=v["kiem_bai"],
                    is_current=v["is_current"],
                    replaces_id=v["replaces"],
                    correction_reason=v["correction_reason"] or "",
                    entered_by=self.user(v.get("entered_by")),
                    entered_player_id=v.get("entered_player"),
                    created_at=when(v["created_at"]),
                    status=v.get("status") or VanStatus.NOT_NEEDED,
                    confirmed_by=self.user(v.get("confirmed_by")),
                    confirmed_at=when(v.get("confirmed_at")),
                    confirmed_player_id=v.get("confirmed_player"),
                )
            )
            for r in v.get("reviews", []):
                insert(
                    VanReview(
                        van_id=v["id"],
                        decision=r["decision"],
                        reviewer=self.user(r["reviewer"]),
                        submitter=self.user(r.get("submitter")),
                        reviewer_player_id=r.get("reviewer_player"),
                        submitter_player_id=r.get("submitter_player"),
                        reason=r.get("reason") or "",
                        created_at=when(r["created_at"]),
                    )
                )
        for t in sorted(s["transactions"], key=lambda t: t["id"]):
            txn = insert(
                LedgerTransaction(
                    id=t["id"],
                    sitting=sitting,
                    van_id=t["van"],
                    kind=t["kind"],
                    reason=t["reason"],
                    reverses_id=t["reverses"],
                    created_by=self.user(t.get("created_by")),
                    created_at=when(t["created_at"]),
                )
            )
            Posting.objects.bulk_create(
                Posting(
                    transaction=txn,
                    sitting=sitting,
                    account=p["account"],
                    amount=p["amount"],
                    line=p["line"],
                    why=p["why"],
                    seat=seats[p["seat"]] if p.get("seat") else None,
                )
                for p in t["postings"]
            )
        return len(s["van"]), len(s["transactions"])

    def refuse_if_present(self) -> None:
        ids = [s["id"] for s in self.doc["sittings"]]
        van = [v["id"] for s in self.doc["sittings"] for v in s["van"]]
        txns = [t["id"] for s in self.doc["sittings"] for t in s["transactions"]]
        if (
            Sitting.objects.filter(pk__in=ids).exists()
            or Van.objects.filter(pk__in=van).exists()
            or LedgerTransaction.objects.filter(pk__in=txns).exists()
        ):
            raise BackupError(
                N_(
                    "Cơ sở dữ liệu này đã có những canh bài, ván hoặc bút toán của bản sao lưu: hãy "
                    "khôi phục vào một cơ sở dữ liệu trống."
                )
            )


def _reset_sequences(model_list: list[type[models.Model]]) -> None:
    """Restored rows carry their own ids: move the id sequences past them."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), model_list):
            cursor.execute(sql)


def backup_restore(*, document: Mapping[str, Any]) -> Restored:
    """Restore a backup document (a sitting's or an event's) into this database; one transaction."""
    if not isinstance(document, Mapping) or (document.get("format"), document.get("version")) != (
        FORMAT,
        VERSION,
    ):
        raise BackupError(
            N_("Đây không phải bản sao lưu Sổ Tôm ({format} phiên bản {version})."),
            format=FORMAT,
            version=VERSION,
        )
    kind = document.get("kind")
    if kind not in kinds():
        raise BackupError(N_("Loại bản sao lưu không rõ: {kind}."), kind=repr(kind))
    with transaction.atomic():
        restorer = Restorer(document)
        restorer.refuse_if_present()
        restorer.rules()
        restorer.people()
        counts = [restorer.sitting(s) for s in sorted(document["sittings"], key=lambda s: s["id"])]
        for part in parts():
            if part.restore is not None:
                part.restore(document, restorer)
        _reset_sequences([Club, Player, Sitting, Van, LedgerTransaction])
    for work in restorer.after:
        work()
    event_id, event_slug = restorer.event or (None, None)
    return Restored(
        kind, len(counts), sum(v for v, _ in counts), sum(t for _, t in counts), event_id, event_slug
    )
