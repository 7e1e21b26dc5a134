"""Two-person confirmation: a second person confirms or rejects a provisional ván.

In a sitting that ``needs_confirmation`` every ván (and every correction's new version) is
written provisional (:attr:`VanStatus.PROVISIONAL`). Someone other than the scorekeeper who
entered it (a seated player with an account, another scorekeeper: ``scoring.review_van``)
then either confirms it or rejects it with a reason; the reviewer never edits. A rejected ván
is put right by the scorekeeper's correction, a new version that is provisional again.

Each decision is one transaction that locks the sitting (like every write to it) and then the
ván's current version (``select_for_update``), checks it is still provisional and not the
reviewer's own, appends a :class:`VanReview` row and updates the ván. Two people confirming at
once: the second waits for the first's lock and is then told the ván is already confirmed; the
database holds it too (one confirmed version per ván, confirmer ≠ submitter, on both tables).
Decisions are idempotent by key (:mod:`scoring.services.idempotency`) and announced like every
write (:func:`scoring.services.sittings.announce`), so an event's leaderboard is recomputed as after a ván.

"Someone other than who entered it" covers more than the account: a ván entered with a table's
PIN or QR link has no account, so it records the grant, the account that issued it and the device
(:class:`~scoring.services.people.EntryVia`); the reviewer may be none of them, nor review from a
session that holds the same grant (the issuer refused by the database too).

And it is decided **by identity**, not by session: a PIN or QR phone names its holder, one of the
seated players, and the ván records that player (``entered_player``). Whoever confirms is known
by the seated players linked to their account (through a session, a private window or an API
token alike) and by the holder their own device named; if one of them entered the ván (as its
device's holder, or seated under the account that entered it), the confirmation is refused. The
review row records both players, and the database refuses the same player on both sides.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from scoring.engine import N_, EngineError, Msg
from scoring.models import Player, Seat, Sitting, Van, VanReview, VanReviewDecision, VanStatus
from scoring.selectors.ledger import user_name, van_json
from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.services.people import NO_VIA, EntryVia, User, Written
from scoring.services.sittings import FINAL, announce

__all__ = ["NoSuchVan", "ReviewConflict", "ReviewRefused", "van_confirm", "van_reject"]


#: Longest reason kept for a rejection.
MAX_REASON = 500


class ReviewRefused(EngineError):
    """This person may not review this ván (their own ván, or no account) (HTTP 403)."""

    code = "review_refused"


class ReviewConflict(EngineError):
    """The ván is no longer waiting for a review: confirmed, rejected or corrected meanwhile (HTTP 409)."""

    code = "review_conflict"


class NoSuchVan(EngineError):
    """The sitting has no ván of that number (HTTP 404)."""

    code = "no_such_van"


def _locked_van(sitting_pk: int, seq: int) -> Van:
    """Lock the sitting (writes to one sitting are serialised, in the ledger's lock order), then
    the current version of ván ``seq``."""
    locked = (
        Sitting.objects.select_for_update(no_key=True)
        .filter(pk=sitting_pk)
        .values_list("pk", "final_at")
        .first()
    )
    if locked is None:
        raise NoSuchVan(N_("Không có canh bài số {sitting_pk}."), sitting_pk=sitting_pk)
    if locked[1] is not None:
        raise ReviewConflict(FINAL)
    van = (
        Van.objects.select_for_update(of=("self",))
        .select_related("entered_by", "winner", "sitting")
        .filter(sitting_id=sitting_pk, seq=seq, is_current=True)
        .first()
    )
    if van is None:
        raise NoSuchVan(N_("Canh bài số {sitting_pk} không có ván số {seq}."), sitting_pk=sitting_pk, seq=seq)
    return van


def _players_of(sitting_pk: int, user_id: int | None) -> list[int]:
    """The seated players of the sitting linked to the account (none: no account, or not seated)."""
    if user_id is None:
        return []
    return list(
        Seat.objects.filter(sitting_id=sitting_pk, player__user_id=user_id)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def _entering_players(van: Van) -> list[int]:
    """Who entered the ván, as seated players: its device's named holder, and the seats of the
    account that entered it."""
    found = [van.entered_player_id] if van.entered_player_id is not None else []
    return found + [p for p in _players_of(van.sitting_id, van.entered_by_id) if p not in found]


def _reviewing_players(van: Van, reviewer: Any, via: EntryVia) -> list[int]:
    """Who reviews, as seated players: the seats of the reviewer's account, and the holder the
    reviewer's own device named (a PIN phone later signed in is both)."""
    found = _players_of(van.sitting_id, reviewer.pk)
    if via.player is not None and via.player not in found:
        found.append(via.player)
    return found


def _same_hands(van: Van, reviewer: Any, via: EntryVia) -> Msg | None:
    """Why the reviewer counts as whoever entered the ván (None when a second person)."""
    second = Msg(N_("người thứ hai (không phải người ghi) mới được xác nhận hay bác."))
    if van.entered_by_id is not None and van.entered_by_id == reviewer.pk:
        return Msg(N_("Bạn đã ghi ván {seq}: {second}"), seq=van.seq, second=second)
    same = set(_entering_players(van)) & set(_reviewing_players(van, reviewer, via))
    if same:
        name = Player.objects.filter(pk__in=same).order_by("pk").values_list("name", flat=True).first()
        return Msg(
            N_(
                "Ván {seq} do {name} ghi, và bạn cũng là {name} (theo tài khoản hay máy bạn đang dùng): {second}"
            ),
            seq=van.seq,
            name=name,
            second=second,
        )
    if van.entered_grant_by_id is not None and van.entered_grant_by_id == reviewer.pk:
        return Msg(
            N_("Ván {seq} được ghi bằng mã ghi điểm (PIN / mã QR) do chính bạn cấp: {second}"),
            seq=van.seq,
            second=second,
        )
    if van.entered_grant and via.grant == van.entered_grant:
        return Msg(
            N_("Máy này giữ đúng mã ghi điểm đã dùng để ghi ván {seq}: {second}"), seq=van.seq, second=second
        )
    if van.entered_device and via.device == van.entered_device:
        return Msg(N_("Ván {seq} được ghi từ chính máy này: {second}"), seq=van.seq, second=second)
    return None


def _check(van: Van, reviewer: Any, via: EntryVia = NO_VIA) -> None:
    """A provisional ván someone else entered; what no longer waits for a review says so first."""
    if van.status == VanStatus.PROVISIONAL:
        refusal = _same_hands(van, reviewer, via)
        if refusal:
            raise ReviewRefused(refusal)
        return
    if van.status == VanStatus.CONFIRMED:
        who = user_name(van.confirmed_by) if van.confirmed_by_id else Msg(N_("người khác"))
        raise ReviewConflict(N_("Ván {seq} đã được {who} xác nhận rồi."), seq=van.seq, who=who)
    if van.status == VanStatus.REJECTED:
        raise ReviewConflict(N_("Ván {seq} đã bị bác, đang chờ người ghi sửa lại."), seq=van.seq)
    raise ReviewConflict(N_("Ván {seq} không cần xác nhận."), seq=van.seq)


def _decide(
    *,
    sitting: Sitting | int,
    seq: int,
    reviewer: Any,
    decision: VanReviewDecision,
    reason: str,
    idempotency_key: str | None,
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    if reviewer is None or not getattr(reviewer, "is_authenticated", False):
        raise ReviewRefused(N_("Cần đăng nhập bằng tài khoản của mình để xác nhận hay bác một ván."))
    pk = sitting.pk if isinstance(sitting, Sitting) else sitting
    box: dict[str, Van] = {}

    def lock() -> None:
        box["van"] = _locked_van(pk, seq)

    def action() -> Answer:
        van = box["van"]
        _check(van, reviewer, via)
        entering, reviewing = _entering_players(van), _reviewing_players(van, reviewer, via)
        reviewer_player = reviewing[0] if reviewing else None
        VanReview.objects.create(
            van=van,
            decision=decision,
            reviewer=reviewer,
            submitter_id=van.entered_by_id,
            reviewer_player_id=reviewer_player,
            submitter_player_id=entering[0] if entering else None,
            reason=reason,
        )
        if decision == VanReviewDecision.CONFIRM:
            van.status, van.confirmed_by, van.confirmed_at = VanStatus.CONFIRMED, reviewer, timezone.now()
            van.confirmed_player_id = reviewer_player
        else:
            van.status = VanStatus.REJECTED
        van.save(update_fields=["status", "confirmed_by", "confirmed_at", "confirmed_player"])
        announce(sitting_ids=[pk], action=f"van_{decision}")
        return Answer(Outcome.CHANGED, {"van": van_json(van)})

    answer = run_once(
        key=idempotency_key,
        operation=f"van_review_{decision}",
        target=[pk, seq],
        payload={"reviewer": reviewer.pk, "reason": reason},
        action=action,
        lock=lock,
    )
    return Written(Van.objects.get(pk=answer.body["van"]["id"]), answer)


def van_confirm(
    *,
    sitting: Sitting | int,
    seq: int,
    reviewer: User | None,
    idempotency_key: str | None = None,
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    """Confirm the current version of ván ``seq``: it then counts as confirmed (``xac_nhan``).
    ``via``: the grant and device the reviewer's request holds
    (:func:`scoring.permissions.review_via`)."""
    return _decide(
        sitting=sitting,
        seq=seq,
        reviewer=reviewer,
        decision=VanReviewDecision.CONFIRM,
        reason="",
        idempotency_key=idempotency_key,
        via=via,
    )


def van_reject(
    *,
    sitting: Sitting | int,
    seq: int,
    reviewer: User | None,
    reason: str,
    idempotency_key: str | None = None,
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    """Reject the current version of ván ``seq`` with a reason (``bac_bo``): the scorekeeper then
    corrects it, and the correction is provisional again."""
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise EngineError(N_("Hãy ghi lý do bác ván (ví dụ: ghi nhầm người ù)."))
    if len(reason) > MAX_REASON:
        raise EngineError(N_("Lý do bác dài quá {most} ký tự."), most=MAX_REASON)
    return _decide(
        sitting=sitting,
        seq=seq,
        reviewer=reviewer,
        decision=VanReviewDecision.REJECT,
        reason=reason,
        idempotency_key=idempotency_key,
        via=via,
    )
