"""Writes of the sổ điểm: open a sitting, record, preview and correct a ván, settle up.

Every write is keyword-only, runs in one transaction, locks the sitting's row first
(``select_for_update``) so writes to one sitting are serialised, is idempotent by key
(:mod:`scoring.services.idempotency`) and announces itself (:func:`announce`): in its own
transaction (:data:`sitting_written`) and after commit (:data:`sitting_changed`). Who pays whom is the engine's answer (``settle_van``, a pure fold
over the sitting's current ván); this layer only records the ván and posts the transfers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from scoring.engine import GA_TRONG as POT
from scoring.engine import (
    N_,
    POOL,
    REASON_PHRASES,
    VAN_KEYS,
    EngineError,
    RuleSet,
    SittingState,
    Transfer,
    initial_state,
    make_terms,
    parse_van,
    settle_up,
)
from scoring.i18n import LEDGER
from scoring.models import Club, Player, Seat, Sitting, TransactionKind, Van, VanStatus
from scoring.names import first_clash
from scoring.selectors.ledger import (
    balances,
    sitting_json,
    sitting_state_json,
    state_answer,
    transfers_json,
    van_json,
)
from scoring.services import rows
from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.services.ledger import (
    current_van,
    fold,
    plan_van,
    post_transfers,
    post_van,
    reverse_transactions,
    seats_by_name,
    settle_next,
    sitting_terms,
    state_after,
    store_state,
    sync_hoi,
    write_planned,
)
from scoring.services.people import NO_VIA, EntryVia, User, Written, player_for_name
from scoring.services.rules import resolve_rules, snapshot_for
from scoring.services.van import (
    ResultsFinal,
    SequenceConflict,
    SittingClosed,
    check_cards,
    van_fields,
    van_preview,
    van_reposted,
    van_status,
)

__all__ = [
    "ResultsFinal",
    "SequenceConflict",
    "SittingClosed",
    "announce",
    "sitting_changed",
    "sitting_written",
    "sitting_open",
    "sitting_settle_up",
    "correction_target",
    "pot_returns",
    "sittings_make_final",
    "van_correct",
    "van_preview",
    "van_record",
]


#: Sent inside the transaction of every write to a sitting (the same arguments as
#: :data:`sitting_changed`): what a receiver writes commits or rolls back with the write itself
#: (an event's leaderboard number is bumped here, :mod:`tournaments.services.van`).
sitting_written = Signal()

#: Sent after the commit of every write to a sitting (``sitting_id``, ``action``, and ``van_id``
#: for a ván recorded or corrected: the version written): live pages, ratings, exports and
#: webhooks hook here.
sitting_changed = Signal()


def announce(*, sitting_ids: Sequence[int], action: str, van_id: int | None = None) -> None:
    """Every write to sittings announces itself here, in its transaction: :data:`sitting_written`
    now, :data:`sitting_changed` after commit (nothing if the transaction rolls back)."""
    ids = list(sitting_ids)
    for pk in ids:
        sitting_written.send(sender=Sitting, sitting_id=pk, action=action, van_id=van_id)

    def after_commit() -> None:
        for pk in ids:
            sitting_changed.send(sender=Sitting, sitting_id=pk, action=action, van_id=van_id)

    transaction.on_commit(after_commit)


def _locked(sitting: Sitting | int) -> Sitting:
    pk = sitting.pk if isinstance(sitting, Sitting) else sitting
    found = rows.select_one(model=Sitting, where={"pk": pk}, related=["rules"], for_update=True)
    if found is None:
        raise EngineError(N_("Không có canh bài số {pk}."), pk=pk)
    return found


#: The refusal of any change to a sitting whose results were made final.
FINAL = N_(
    "Kết quả đã được chốt chính thức (giải đã kết thúc): canh bài này không ghi, sửa, "
    "xác nhận hay thanh toán ván được nữa."
)


def _open_for_play(sitting: Sitting) -> None:
    if sitting.final_at is not None:
        raise ResultsFinal(FINAL, state=sitting_state_json(sitting))
    if sitting.ended_at is not None:
        raise SittingClosed(
            N_("Canh bài đã thanh toán và kết thúc: không thể ghi hay sửa ván nữa."),
            state=sitting_state_json(sitting),
        )


# -- open --------------------------------------------------------------------------------------


def sitting_open(
    *,
    game: str,
    rules: Any,
    mode: str,
    players: Sequence[Player | str | int],
    title: str = "",
    club: Club | None = None,
    created_by: User | None = None,
    needs_confirmation: bool = False,
    idempotency_key: str | None = None,
) -> Written[Sitting]:
    """Open a sitting. ``rules``: a preset or saved village slug, ``{"preset": ..., changes}``, or a
    RuleSet; ``players`` in seat order (counter-clockwise): Player objects, player ids, or names
    (the club's one player of that name, else a new player). ``needs_confirmation``: every ván
    stays provisional until a second person confirms it (:mod:`scoring.services.review`)."""
    if not isinstance(players, list | tuple):
        raise EngineError(
            N_("'players' phải là danh sách người chơi theo thứ tự chỗ ngồi (ngược chiều kim đồng hồ).")
        )
    the_rules = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    spec = {
        "game": game,
        "rules": the_rules.fingerprint,
        "mode": mode,
        "title": title,
        "players": [p.pk if isinstance(p, Player) else p for p in players],
    }
    if needs_confirmation:
        spec["needs_confirmation"] = True

    def action() -> Answer:
        table = make_terms(game, the_rules, mode)
        seated = [_player(p, club) for p in players]
        clash = first_clash(p.name for p in seated)
        if clash is not None:
            raise EngineError(
                N_(
                    "Canh bài có hai người cùng tên “{name}”: mỗi chỗ ngồi cần một tên riêng (thêm "
                    "chữ để phân biệt, ví dụ “{name} Đông”)."
                ),
                name=clash[1],
            )
        initial_state(
            [p.name for p in seated], table.game, table.rules, table.mode
        )  # the engine checks seats
        sitting = Sitting.objects.create(
            game=table.game.slug.value,
            rules=snapshot_for(rules=the_rules),
            mode=table.mode.value,
            title=(title or "").strip()[:160],
            club=club,
            created_by=created_by,
            needs_confirmation=needs_confirmation,
        )
        Seat.objects.bulk_create(
            Seat(sitting=sitting, player=p, position=i, name=p.name) for i, p in enumerate(seated, start=1)
        )
        announce(sitting_ids=[sitting.pk], action="open")
        return Answer(Outcome.CREATED, sitting_json(sitting))

    answer = run_once(
        key=idempotency_key,
        operation="sitting_open",
        target=club.pk if club else None,
        payload=spec,
        action=action,
    )
    return Written(Sitting.objects.get(pk=answer.body["id"]), answer)


def _player(ref: Player | str | int, club: Club | None) -> Player:
    if isinstance(ref, Player):
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool):
        found = Player.objects.filter(pk=ref).first()
        if found is None:
            raise EngineError(N_("Không có người chơi số {ref}."), ref=ref)
        return found
    if isinstance(ref, str):
        return player_for_name(name=ref, club=club)
    raise EngineError(N_("Mỗi người chơi phải là một tên hoặc một mã số người chơi."))


# -- record ------------------------------------------------------------------------------------


def _clean_record(record: Any) -> dict[str, Any]:
    if not isinstance(record, Mapping):
        raise EngineError(N_('Ván phải là một đối tượng JSON, ví dụ {"winner": "An", "cuoc": ["tom"]}.'))
    unknown = sorted(set(record) - VAN_KEYS)
    if unknown:
        raise EngineError(
            N_("Khóa không hợp lệ: {unknown}. Các khóa được dùng: {allowed}."),
            unknown=list(unknown),
            allowed=sorted(VAN_KEYS),
        )
    return dict(record)


def van_record(
    *,
    sitting: Sitting | int,
    seq: int,
    record: Mapping[str, Any],
    idempotency_key: str | None,
    entered_by: User | None = None,
    cards: str = "",
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    """Record ván number ``seq`` (the next one) and post its settlement.

    A ``seq`` already taken (or skipping one) raises :class:`SequenceConflict` with the current
    state; never appended silently. Streak and points are computed by the engine. ``via``: the
    grant (and its issuer) and the device the ván came through, recorded with it.
    """
    record = _clean_record(record)
    pk = sitting.pk if isinstance(sitting, Sitting) else sitting
    box: dict[str, Any] = {}

    def lock() -> None:
        box["s"] = _locked(pk)

    def action() -> Answer:
        s = box["s"]
        _open_for_play(s)
        seats = seats_by_name(sitting=s)
        table = sitting_terms(sitting=s)
        count, before = state_after(sitting=s, table=table, names=list(seats))
        expected = count + 1
        if seq != expected:
            raise SequenceConflict.for_seq(s, seq, expected)
        parsed = parse_van(record, list(seats), seq)
        settled = settle_next(table=table, state=before, record=parsed)
        [van] = rows.insert(
            objs=[
                Van(
                    sitting=s,
                    seq=seq,
                    record=record,
                    cards=(cards or "").strip(),
                    entered_by=entered_by,
                    status=van_status(sitting=s),
                    kiem_bai=check_cards(game=s.game, record=parsed, cards=cards),
                    **_via_fields(s, via, seats, entered_by),
                    **van_fields(record=parsed, settled=settled, seats=seats),
                )
            ]
        )
        post_van(
            sitting=s,
            van=van,
            settled=settled,
            before=before,
            table=table,
            seats=seats,
            created_by=entered_by,
        )
        if settled.state.hoi != before.hoi:
            sync_hoi(sitting=s, state=settled.state, before=before)
        store_state(sitting=s, count=seq, newest=van.pk, state=settled.state, seats=seats)
        announce(sitting_ids=[s.pk], action="van_record", van_id=van.pk)
        box["van"] = van
        # The answer from what was just posted (no read-back: equal by the ledger's invariant).
        return Answer(
            Outcome.CREATED,
            {
                "van": van_json(van, transfers_json(settled.transfers)),
                "sitting": state_answer(s, settled.state),
            },
        )

    answer = run_once(
        key=idempotency_key,
        operation="van_record",
        target=pk,
        payload={"seq": seq, "record": record, "cards": cards or ""},
        action=action,
        lock=lock,
        read_key_first=False,  # a repeat's ván number is taken: refused, then answered from its key
    )
    if answer.replayed:  # answered from the key: this call wrote nothing
        return Written(None, answer, load=lambda: Van.objects.get(pk=answer.body["van"]["id"]))
    return Written(box["van"], answer)


def _via_fields(s: Sitting, via: EntryVia, seats: Mapping[str, Seat], by: User | None) -> dict[str, Any]:
    """What a ván records of how it was entered. A device entering through a grant (a table's PIN
    or QR link) in a sitting that needs a second person's confirmation must have named its holder,
    one of the seated players: who entered is then known by identity, whatever account or session
    a confirmation later comes through (:mod:`scoring.services.review`)."""
    holder = via.player if via.player in {seat.player_id for seat in seats.values()} else None
    if s.needs_confirmation and via.grant and by is None and holder is None:
        raise EngineError(
            N_(
                "Canh này cần người thứ hai xác nhận ván: máy ghi bằng mã PIN / mã QR phải cho biết "
                "ai đang cầm máy. Hãy mở lại trang chiếu và chọn tên mình trong số người ngồi chiếu."
            )
        )
    return {
        "entered_grant": via.grant[:40],
        "entered_grant_by_id": via.grant_by,
        "entered_device": via.device[:64],
        "entered_player_id": holder,
    }


# -- correct -----------------------------------------------------------------------------------


def correction_target(*, sitting: int, seq: int, replaces: int | None, current: int) -> int:
    """The version of ván ``seq`` a correction replaces: the one the corrector last saw
    (``replaces``) when given, else the current one. Naming a version superseded since makes
    :func:`van_correct` refuse (409), so a correction kept on a phone offline never silently
    replaces someone else's; naming a version of another ván is an error."""
    if replaces is None or replaces == current:
        return current
    if not Van.objects.filter(pk=replaces, sitting_id=sitting, seq=seq).exists():
        raise EngineError(
            N_("Mã phiên bản {replaces} không phải một bản của ván số {seq} trong canh bài này."),
            replaces=replaces,
            seq=seq,
        )
    return replaces


def van_correct(
    *,
    van: Van | int,
    record: Mapping[str, Any],
    reason: str,
    corrected_by: User | None,
    idempotency_key: str | None,
    cards: str = "",
    via: EntryVia = NO_VIA,
) -> Written[Van]:
    """Correct a ván: reverse the ledger transactions of it and of every later ván (reversing
    transactions, never edits), supersede it by a new version, and re-post the settlements of
    the corrected history. Balances then equal the replay of the current ván."""
    record = _clean_record(record)
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise EngineError(N_("Hãy ghi lý do sửa ván."))
    van_pk = van.pk if isinstance(van, Van) else van
    found = Van.objects.filter(pk=van_pk).values_list("sitting_id", "seq").first()
    if found is None:
        raise EngineError(N_("Không có ván số hiệu {van_pk}."), van_pk=van_pk)
    sitting_pk, seq = found
    box: dict[str, Sitting] = {}

    def lock() -> None:
        box["s"] = _locked(sitting_pk)

    def action() -> Answer:
        s = box["s"]
        _open_for_play(s)
        old = Van.objects.get(pk=van_pk)
        if not old.is_current:
            raise SequenceConflict(
                N_("Ván này đã được sửa bằng một bản khác; hãy tải lại canh bài."),
                state=sitting_state_json(s),
            )
        new, transfers, state = _supersede(s, old, record, reason, corrected_by, cards, via)
        announce(sitting_ids=[s.pk], action="van_correct", van_id=new.pk)
        # The answer from what was just posted, as van_record's (equal by the ledger's invariant).
        return Answer(
            Outcome.CREATED,
            {"van": van_json(new, transfers_json(transfers)), "sitting": state_answer(s, state)},
        )

    # The target is the ván's place (sitting, seq), so a repeat finds its first answer even though
    # the version it named has been superseded by then.
    answer = run_once(
        key=idempotency_key,
        operation="van_correct",
        target=[sitting_pk, seq],
        payload={"record": record, "reason": reason, "cards": cards or ""},
        action=action,
        lock=lock,
    )
    return Written(Van.objects.get(pk=answer.body["van"]["id"]), answer)


def _supersede(
    s: Sitting, old: Van, record: dict[str, Any], reason: str, by: User | None, cards: str, via: EntryVia
) -> tuple[Van, tuple[Transfer, ...], SittingState]:
    """Supersede ``old`` by a new version of ``record`` and re-post every later ván; answer the new
    version, its transfers and the engine's state after the last ván."""
    vans = current_van(sitting=s)
    k = old.seq
    later = vans[k:]
    # In bulk: a correction of ván 1 of a thousand writes a few statements, not thousands.
    reverse_transactions(
        txns=list(
            s.transactions.filter(
                van__is_current=True,  # ván k (superseded below) and every later one
                van__seq__gte=k,
                kind__in=[TransactionKind.GOM, TransactionKind.VAN],
                reversed_by__isnull=True,
            ).values_list("pk", flat=True)
        ),
        reason=LEDGER["correction"].format(k=k, text=reason),
        created_by=by,
    )
    old.is_current = False
    old.status = VanStatus.SUPERSEDED
    old.save(update_fields=["is_current", "status"])
    seats = seats_by_name(sitting=s)
    names = list(seats)
    folded = fold(sitting=s, records=[v.record for v in vans[: k - 1]], names=names)
    parsed = parse_van(record, names, k)
    settled = settle_next(table=folded.table, state=folded.state, record=parsed)
    new = Van.objects.create(
        sitting=s,
        seq=k,
        record=record,
        cards=(cards or "").strip(),
        entered_by=by,
        replaces=old,
        status=van_status(sitting=s),
        correction_reason=reason,
        kiem_bai=check_cards(game=s.game, record=parsed, cards=cards),
        **_via_fields(s, via, seats, by),
        **van_fields(record=parsed, settled=settled, seats=seats),
    )
    planned = plan_van(
        sitting=s,
        van=new,
        settled=settled,
        before=folded.state,
        table=folded.table,
        seats=seats,
        created_by=by,
    )
    transfers = settled.transfers
    state = settled.state
    changed = []
    for van in later:
        parsed = parse_van(van.record, names, van.seq)
        before = state
        settled = settle_next(table=folded.table, state=state, record=parsed)
        if van_reposted(van=van, settled=settled, save=False):
            changed.append(van)
        planned += plan_van(
            sitting=s,
            van=van,
            settled=settled,
            before=before,
            table=folded.table,
            seats=seats,
            created_by=by,
            note=LEDGER["recomputed"].format(k=k),
        )
        state = settled.state
    Van.objects.bulk_update(changed, ["streak", "points"], batch_size=500)
    write_planned(planned=planned)
    sync_hoi(sitting=s, state=state)
    store_state(sitting=s, count=len(vans), newest=new.pk, state=state, seats=seats)
    return new, transfers, state


# -- results made final ------------------------------------------------------------------------


def sittings_make_final(*, sittings: Sequence[int]) -> int:
    """Make the results of these sittings final (an event finished): every later write to them is
    refused (409). Each sitting's row lock is taken in id order, so a ván being written finishes
    first and none starts after. Returns how many were made final now."""
    ids = list(
        Sitting.objects.select_for_update(no_key=True)
        .filter(pk__in=list(sittings), final_at__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return Sitting.objects.filter(pk__in=ids).update(final_at=timezone.now())


# -- settle up ---------------------------------------------------------------------------------


def pot_returns(*, players: Sequence[str], pool: int, pot: int) -> list[Transfer]:
    """The pool and the gà pot go back to the players in equal shares; the points that do not
    divide go one each to the first seats (a house choice where docs/rules.md is silent)."""
    out = []
    for account, amount, label in (
        (POOL, pool, REASON_PHRASES["pool"]),
        (POT, pot, REASON_PHRASES["ga_trong"]),
    ):
        share, rest = divmod(amount, len(players))
        for i, name in enumerate(players):
            got = share + (1 if i < rest else 0)
            if got:
                out.append(
                    Transfer(
                        account, name, got, LEDGER["pot_return"].format(payee=name, amount=got, pot=label)
                    )
                )
    return out


def sitting_settle_up(
    *, sitting: Sitting | int, settled_by: User | None, idempotency_key: str | None
) -> Written[Sitting]:
    """End the sitting: return what is left in the pool and the gà pot to the players, then record
    the fewest transfers that bring every balance to zero, as settlement entries (not play)."""
    pk = sitting.pk if isinstance(sitting, Sitting) else sitting
    box: dict[str, Sitting] = {}

    def lock() -> None:
        box["s"] = _locked(pk)

    def action() -> Answer:
        s = box["s"]
        _open_for_play(s)
        seats = seats_by_name(sitting=s)
        now = balances(s)
        returns = pot_returns(players=list(seats), pool=now.pool, pot=now.ga_trong)
        after = dict(now.players)
        for t in returns:
            after[t.to] += t.amount
        plan = settle_up(after)
        post_transfers(
            sitting=s,
            kind=TransactionKind.SETTLEMENT,
            transfers=returns,
            seats=seats,
            created_by=settled_by,
            reason=LEDGER["returned"],
        )
        # A debtor paying a creditor clears the debt: in points, the creditor's balance goes down
        # by what the debtor's goes up, so the postings run against the payment.
        clearing = [Transfer(t.to, t.from_, t.amount, t.why) for t in plan]
        post_transfers(
            sitting=s,
            kind=TransactionKind.SETTLEMENT,
            transfers=clearing,
            seats=seats,
            created_by=settled_by,
            reason=LEDGER["settlement"],
        )
        s.ended_at = timezone.now()
        s.save(update_fields=["ended_at"])
        announce(sitting_ids=[s.pk], action="settle_up")
        return Answer(
            Outcome.CHANGED,
            {"sitting": sitting_json(s), "transfers": [t.to_dict() for t in (*returns, *plan)]},
        )

    answer = run_once(
        key=idempotency_key, operation="sitting_settle_up", target=pk, payload={}, action=action, lock=lock
    )
    return Written(Sitting.objects.get(pk=pk), answer)
