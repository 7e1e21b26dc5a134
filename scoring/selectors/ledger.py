"""Reads of the sổ điểm: balances from the postings, ván with their transfers, history.

Every balance shown anywhere comes from the postings (the ledger), never from a cached number.
The ``*_json`` functions build the JSON answers of the API (and what idempotent writes store).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet, Sum
from django.utils.translation import pgettext

from scoring.engine import PRESETS, EngineError, SittingState, Transfer, khoi_name, load_rules
from scoring.i18n import reason
from scoring.models import (
    Account,
    Club,
    LedgerTransaction,
    Player,
    Posting,
    Sitting,
    TransactionKind,
    Van,
    VanReview,
    VanReviewDecision,
    VanStatus,
    VillageRuleSet,
)
from scoring.text import iso

__all__ = [
    "PLAY",
    "Balances",
    "Integrity",
    "balances",
    "club_json",
    "integrity",
    "iter_van_list",
    "ledger_differences",
    "player_json",
    "review_json",
    "rule_sets",
    "sitting_history",
    "sitting_json",
    "sitting_state_json",
    "state_answer",
    "streak_label",
    "transfers_json",
    "user_name",
    "van_json",
    "van_list",
    "van_transfers",
]

#: Transactions whose postings are the ván's transfers as they stand (not reversed).
ACTIVE_PLAY = Q(kind__in=[TransactionKind.GOM, TransactionKind.VAN], reversed_by__isnull=True)


@dataclass(frozen=True, slots=True)
class Balances:
    """Points of every account of a sitting: players (seat order), pool, gà trong pot."""

    players: dict[str, int]
    pool: int = 0
    ga_trong: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"balances": self.players, "pool": self.pool, "ga_trong": self.ga_trong}


#: Postings of play: of a transaction tied to a ván (gom, the ván, and their reversals). Settling up
#: (a canh's own, a period close of the club book) and the reversal of a settlement are tied to none.
PLAY = Q(transaction__van__isnull=False)


def balances(sitting: Sitting, *, play_only: bool = False) -> Balances:
    """Balances summed from the postings (``play_only``: leaving out settlement entries and their
    reversals). 2 queries."""
    postings = Posting.objects.filter(sitting=sitting)
    if play_only:
        postings = postings.filter(PLAY)
    sums = {
        (row["account"], row["seat_id"]): row["total"]
        for row in postings.values("account", "seat_id").annotate(total=Sum("amount")).order_by()
    }
    players = {
        seat.name: sums.get((Account.PLAYER, seat.pk), 0) for seat in sitting.seats.order_by("position")
    }
    return Balances(players, sums.get((Account.POOL, None), 0), sums.get((Account.GA_TRONG, None), 0))


def user_name(user: Any) -> str | None:
    """How a user is shown in history (None: nobody signed in)."""
    return None if user is None else user.get_username()


def streak_label(n: int) -> str:
    """Vietnamese name of a streak: "" (a first win), "Thông", "Tam Khôi", …"""
    if n < 2:
        return ""
    return "Thông" if n == 2 else khoi_name(n)


def van_transfers(sitting: Sitting, vans: Iterable[Van] | None = None) -> dict[int, list[dict[str, Any]]]:
    """The transfers (as they stand, not reversed) of each ván, by ván id. 1 query."""
    rows = (
        Posting.objects.filter(sitting=sitting)
        .filter(transaction__in=LedgerTransaction.objects.filter(ACTIVE_PLAY, sitting=sitting))
        .order_by("transaction_id", "line", "amount")
        .values_list(
            "transaction__van_id", "transaction_id", "line", "account", "seat__name", "amount", "why"
        )
    )
    if vans is not None:
        rows = rows.filter(transaction__van__in=[v.pk for v in vans])
    lines: dict[tuple[int, int], dict[str, Any]] = {}
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for van_id, txn_id, line, account, seat_name, amount, why in rows:
        name = seat_name if account == Account.PLAYER else account
        entry = lines.get((txn_id, line))
        if entry is None:
            entry = {"from": None, "to": None, "amount": abs(amount), "why": why}
            lines[(txn_id, line)] = entry
            out[van_id].append(entry)
        entry["from" if amount < 0 else "to"] = name
    return dict(out)


#: Each choice field's labels by value, as ``get_<field>_display`` finds them (it builds this map
#: again on every call): the labels stay lazy, translated when shown.
_LABELS: dict[str, dict[Any, Any]] = {}


def _display(van: Van, name: str) -> str:
    """``van.get_<name>_display()``, its map of choices built once per process."""
    labels = _LABELS.get(name)
    if labels is None:
        labels = _LABELS[name] = dict(Van._meta.get_field(name).flatchoices)
    value = getattr(van, name)
    return str(labels.get(value, value))


def van_json(van: Van, transfers: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A ván as the API shows it (``transfers``: from :func:`van_transfers`, else queried)."""
    if transfers is None:
        transfers = van_transfers(van.sitting, [van]).get(van.pk, []) if van.is_current else []
    return {
        "id": van.pk,
        "seq": van.seq,
        "record": van.record,
        "outcome": van.outcome,
        "outcome_label": pgettext("outcome", _display(van, "outcome")),
        "winner": van.winner.name if van.winner_id else None,
        "fault": van.fault or None,
        "cuoc": van.cuoc,
        "declared": van.declared,
        "streak": van.streak,
        "streak_label": streak_label(van.streak),
        "points": van.points,
        "transfers": [{**t, "why": reason(t["why"])} for t in transfers],
        "cards": van.cards or None,
        "kiem_bai": van.kiem_bai,
        "entered_by": user_name(van.entered_by),
        "created_at": van.created_at.isoformat(),
        "is_current": van.is_current,
        "replaces": van.replaces_id,
        "correction_reason": van.correction_reason or None,
        **review_json(van),
    }


def review_json(van: Van) -> dict[str, Any]:
    """Two-person confirmation of a ván: its status, who confirmed it and when, and why it was
    rejected (one query, only for a rejected ván)."""
    reason = None
    if van.status == VanStatus.REJECTED:
        reason = (
            van.reviews.filter(decision=VanReviewDecision.REJECT)
            .order_by("-id")
            .values_list("reason", flat=True)
            .first()
        )
    return {
        "status": van.status,
        "status_label": _display(van, "status"),
        "confirmed_by": user_name(van.confirmed_by) if van.confirmed_by_id else None,
        "confirmed_at": iso(van.confirmed_at),
        "rejected_reason": reason,
    }


def _van_rows(sitting: Sitting) -> QuerySet[Van]:
    # Not select_related("sitting"): each ván would carry its own copy of the sitting row, with the
    # engine's state kept on it (megabytes each in a long sitting); the manager gives them ``sitting``.
    return sitting.van.select_related("winner", "entered_by", "confirmed_by")


def van_list(sitting: Sitting, *, include_superseded: bool = False) -> list[dict[str, Any]]:
    """The sitting's ván with their transfers, by sequence number. 2 queries."""
    vans = _van_rows(sitting).order_by("seq", "id")
    if not include_superseded:
        vans = vans.filter(is_current=True)
    transfers = van_transfers(sitting)
    return [van_json(v, transfers.get(v.pk, []) if v.is_current else []) for v in vans]


def iter_van_list(sitting: Sitting, *, chunk: int = 500) -> Iterator[dict[str, Any]]:
    """:func:`van_list`'s current ván one by one, read ``chunk`` ván at a time (2 queries a chunk),
    so an export of a long sitting never holds all of them."""
    last = 0
    while True:
        vans = list(_van_rows(sitting).filter(is_current=True, seq__gt=last).order_by("seq")[:chunk])
        if not vans:
            return
        transfers = van_transfers(sitting, vans)
        for v in vans:
            yield van_json(v, transfers.get(v.pk, []))
        last = vans[-1].seq


@dataclass(frozen=True, slots=True)
class Integrity:
    """The integrity line of a sitting: unbalanced transactions, pots below zero."""

    unbalanced: list[int] = field(default_factory=list)
    pool_ok: bool = True
    pot_ok: bool = True

    @property
    def ok(self) -> bool:
        return not self.unbalanced and self.pool_ok and self.pot_ok


def integrity(sitting: Sitting) -> Integrity:
    """Re-check the sitting's transactions: every one sums to zero; the pool and pot stay ≥ 0.

    The pots are checked after every transaction in order, not only at the end. 2 queries.
    """
    unbalanced = list(
        LedgerTransaction.objects.filter(sitting=sitting)
        .annotate(total=Sum("postings__amount"))
        .exclude(total=0)
        .values_list("pk", flat=True)
    )
    rows = (
        Posting.objects.filter(sitting=sitting, account__in=[Account.POOL, Account.GA_TRONG])
        .values("transaction_id", "account")
        .annotate(total=Sum("amount"))
        .order_by("transaction_id")
    )
    running = {Account.POOL.value: 0, Account.GA_TRONG.value: 0}
    lowest = dict(running)
    for row in rows:
        running[row["account"]] += row["total"]
        lowest[row["account"]] = min(lowest[row["account"]], running[row["account"]])
    return Integrity(unbalanced, lowest[Account.POOL] >= 0, lowest[Account.GA_TRONG] >= 0)


def _hoi_json(sitting: Sitting) -> list[dict[str, Any]]:
    return [h.to_dict() for h in sitting.hoi.order_by("index")]


def sitting_state_json(sitting: Sitting) -> dict[str, Any]:
    """Balances, pool, pot, hội and the next ván number: what a write answers with."""
    next_seq = sitting.van.filter(is_current=True).count() + 1
    return {
        "sitting_id": sitting.pk,
        "next_seq": next_seq,
        **balances(sitting).to_dict(),
        "hoi": _hoi_json(sitting),
        "ended_at": iso(sitting.ended_at),
    }


def state_answer(sitting: Sitting, state: SittingState) -> dict[str, Any]:
    """What :func:`sitting_state_json` reads back from the ledger, from the engine's state after the
    ván just posted in this transaction (no query). Equal by the ledger's invariant: the postings
    are that state's transfers, the hội rows its spans (``tests/ledger/test_write_answers.py``)."""
    return {
        "sitting_id": sitting.pk,
        "next_seq": state.van_count + 1,
        "balances": dict(zip(state.players, state.balances, strict=True)),
        "pool": state.pool,
        "ga_trong": state.ga_trong,
        "hoi": [span.to_dict() for span in state.hoi],
        "ended_at": iso(sitting.ended_at),
    }


def transfers_json(transfers: Iterable[Transfer]) -> list[dict[str, Any]]:
    """A settlement's transfers as :func:`van_transfers` reads them back once posted (the ones
    that move nothing are not posted)."""
    return [t.to_dict() for t in transfers if t.amount]


def sitting_json(sitting: Sitting) -> dict[str, Any]:
    """A sitting with its seats, rule set, balances (play and after settlement), pool, pot, hội."""
    rules = sitting.rules
    seats = [
        {"position": s.position, "name": s.name, "player_id": s.player_id}
        for s in sitting.seats.order_by("position")
    ]
    return {
        "id": sitting.pk,
        "title": sitting.title,
        "game": sitting.game,
        "mode": sitting.mode,
        "rules": {
            "preset": rules.preset,
            "name": rules.spec.get("name", ""),
            "fingerprint": rules.fingerprint,
        },
        "club": sitting.club.slug if sitting.club_id else None,
        "seats": seats,
        "created_by": user_name(sitting.created_by),
        "created_at": sitting.created_at.isoformat(),
        **sitting_state_json(sitting),
        "play_balances": balances(sitting, play_only=True).players,
    }


def sitting_history(sitting: Sitting) -> list[dict[str, Any]]:
    """Who entered, corrected, confirmed or rejected which ván, and every ledger transaction, in the
    order written."""
    events: list[tuple[Any, int, dict[str, Any]]] = []
    for van in sitting.van.select_related("entered_by", "entered_player").order_by("id"):
        action = "sua_van" if van.replaces_id else "ghi_van"
        events.append(
            (
                van.created_at,
                0,
                {
                    "event": action,
                    "van_id": van.pk,
                    "seq": van.seq,
                    "by": user_name(van.entered_by),
                    "player": van.entered_player.name if van.entered_player_id else None,
                    "at": van.created_at.isoformat(),
                    "reason": van.correction_reason or None,
                    "replaces": van.replaces_id,
                    "record": van.record,
                },
            )
        )
    txns = LedgerTransaction.objects.filter(sitting=sitting).select_related("created_by", "van")
    for txn in txns.annotate(moved=Sum("postings__amount", filter=Q(postings__amount__gt=0))).order_by("id"):
        events.append(
            (
                txn.created_at,
                1,
                {
                    "event": "but_toan",
                    "transaction_id": txn.pk,
                    "kind": txn.kind,
                    "kind_label": reason(txn.get_kind_display()),
                    "seq": txn.van.seq if txn.van_id else None,
                    "reason": reason(txn.reason),
                    "reverses": txn.reverses_id,
                    "points_moved": txn.moved or 0,
                    "by": user_name(txn.created_by),
                    "at": txn.created_at.isoformat(),
                },
            )
        )
    reviews = (
        VanReview.objects.filter(van__sitting=sitting)
        .select_related("reviewer", "van", "reviewer_player")
        .order_by("id")
    )
    for review in reviews:
        events.append(
            (
                review.created_at,
                2,
                {
                    "event": f"{review.decision}_van",
                    "van_id": review.van_id,
                    "seq": review.van.seq,
                    "by": user_name(review.reviewer),
                    "player": review.reviewer_player.name if review.reviewer_player_id else None,
                    "at": review.created_at.isoformat(),
                    "reason": review.reason or None,
                },
            )
        )
    events.sort(key=lambda e: (e[0], e[1]))
    return [e[2] for e in events]


def club_json(club: Club) -> dict[str, Any]:
    return {"id": club.pk, "name": club.name, "slug": club.slug, "kind": club.kind}


def player_json(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name, "club": player.club.slug if player.club_id else None}


def rule_sets(*, family: str | None = None) -> list[dict[str, Any]]:
    """Presets and saved village rule sets (optionally of one scoring family)."""
    out = []
    for slug in PRESETS:
        rules = load_rules(slug)
        if family is None or rules.family == family:
            out.append(
                {
                    "slug": slug,
                    "name": rules.name,
                    "family": rules.family.value,
                    "saved": False,
                    "fingerprint": rules.fingerprint,
                    "owner": None,
                    "version": None,
                }
            )
    for village in VillageRuleSet.objects.select_related("snapshot", "owner_club", "owner_user").order_by(
        "name"
    ):
        rules = village.rules()
        if family is None or rules.family == family:
            owner = (
                {"kind": "club", "slug": village.owner_club.slug, "name": village.owner_club.name}
                if village.owner_club_id
                else {"kind": "person", "slug": None, "name": village.owner_name}
                if village.owner_user_id
                else None
            )
            out.append(
                {
                    "slug": village.slug,
                    "name": village.name,
                    "family": rules.family.value,
                    "saved": True,
                    "fingerprint": rules.fingerprint,
                    "owner": owner,
                    "version": village.version,
                }
            )
    return out


# -- re-deriving everything (``manage.py ledger_check``) -------------------------------------------


def ledger_differences(sitting: Sitting) -> list[str]:
    """Every way the sitting's ledger differs from the engine's replay of its current ván.

    Checks: each transaction sums to zero; the pool and the pot never go below zero; the ván are
    numbered 1…n; each current ván's transfers as posted are the engine's (accounts, amounts,
    reasons), its streak and points too; superseded ván have nothing left unreversed; play
    balances equal the replay; a settled sitting ends at zero everywhere. Empty: all is well.
    """
    from scoring.services.ledger import fold  # the engine's pure fold (read only)

    label = f"Canh bài #{sitting.pk}"
    checked = integrity(sitting)
    found = [f"{label}: bút toán #{pk} không cân" for pk in checked.unbalanced]
    if not checked.pool_ok:
        found.append(f"{label}: điểm làng có lúc xuống dưới 0")
    if not checked.pot_ok:
        found.append(f"{label}: gà trong có lúc xuống dưới 0")
    vans = list(sitting.van.filter(is_current=True).order_by("seq"))
    if [v.seq for v in vans] != list(range(1, len(vans) + 1)):
        found.append(f"{label}: số ván không liên tục: {[v.seq for v in vans]}")
        return found
    stale = LedgerTransaction.objects.filter(ACTIVE_PLAY, sitting=sitting, van__is_current=False)
    found += [
        f"{label}: bút toán #{pk} của một ván đã sửa chưa được đảo"
        for pk in stale.values_list("pk", flat=True)
    ]
    try:
        replayed = fold(sitting, [v.record for v in vans])
    except (EngineError, AssertionError) as exc:  # stored ván the engine refuses now: a difference
        return [*found, f"{label}: không tính lại được các ván: {exc}"]
    posted = van_transfers(sitting)
    for van, settled in zip(vans, replayed.settlements, strict=True):
        if (van.streak, van.points) != (settled.streak, settled.points):
            found.append(
                f"{label}, ván {van.seq}: ghi ù liền {van.streak}, {van.points} điểm; "
                f"tính lại ra {settled.streak}, {settled.points}"
            )
        if posted.get(van.pk, []) != [t.to_dict() for t in settled.transfers]:
            found.append(f"{label}, ván {van.seq}: các khoản chuyển trong sổ khác với tính lại")
    play = balances(sitting, play_only=True)
    state = replayed.state
    expected = Balances(state.balance_map(), state.pool, state.ga_trong)
    if play != expected:
        found.append(f"{label}: số dư trong sổ {play.to_dict()} khác tính lại {expected.to_dict()}")
    if sitting.ended_at is not None:
        final = balances(sitting)
        if any(final.players.values()) or final.pool or final.ga_trong:
            found.append(f"{label}: đã thanh toán nhưng số dư chưa về 0: {final.to_dict()}")
    return found
