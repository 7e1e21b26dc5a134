"""A festival table's life: open it, move the nọc, the turn and the dealer, start and record a ván."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.engine import N_, GameSlug
from scoring.models import Club, Player, Seat, Sitting, Van
from scoring.selectors.ledger import sitting_state_json
from scoring.services.people import User, Written, acting_user
from scoring.services.sittings import FINAL, ResultsFinal, sitting_open, van_record
from tournaments.console.broadcast import EventType, publish
from tournaments.console.models import FestivalTable
from tournaments.console.selectors import cuoc_names, initial_noc, table_state
from tournaments.console.services.errors import ConsoleError
from tournaments.models import Table
from tournaments.services.van import event_van_record

__all__ = [
    "dealer_set",
    "locked",
    "noc_change",
    "not_final",
    "open_for_play",
    "table_open",
    "turn_set",
    "van_finish",
    "van_start",
]

GAME = GameSlug.TO_TOM_DIEM.value
SEATS = 5


def locked(*, table: FestivalTable | int) -> FestivalTable:
    """The table's row, locked for the rest of the transaction."""
    pk = table.pk if isinstance(table, FestivalTable) else table
    found = (
        FestivalTable.objects.select_for_update(of=("self",)).select_related("sitting").filter(pk=pk).first()
    )
    if found is None:
        raise ConsoleError(N_("Không có chiếu số {n}."), n=pk)
    return found


def not_final(*, sitting: Sitting) -> None:
    """Refuse any change at a table of a finished event (its canh's results are final)."""
    if sitting.final_at is not None:
        raise ResultsFinal(FINAL)


def open_for_play(*, table: FestivalTable) -> None:
    not_final(sitting=table.sitting)
    if table.sitting.ended_at is not None:
        raise ConsoleError(N_("Canh bài của chiếu này đã thanh toán và kết thúc: không nhận hiệu nữa."))


def _check_sitting(sitting: Sitting) -> None:
    not_final(sitting=sitting)
    if sitting.game != GAME or sitting.seats.count() != SEATS:
        raise ConsoleError(N_("Chiếu Tổ Tôm Điếm cần một canh bài Tổ Tôm Điếm có đủ 5 chỗ ngồi."))


def table_open(
    *,
    name: str,
    players: Sequence[Player | str | int] = (),
    rules: Any = "luat-2005",
    mode: str = "quang",
    club: Club | None = None,
    trung_quan: User | None = None,
    created_by: User | None = None,
    event_table: Any = None,
    idempotency_key: str | None = None,
) -> FestivalTable:
    """Open a festival table: a new sitting of five (``players`` in seat order, counter-clockwise),
    or the sitting of an event's chiếu (``event_table``)."""
    name = (name or "").strip()[:160]
    with transaction.atomic():
        if event_table is not None:
            sitting = event_table.sitting
            _check_sitting(sitting)
            if FestivalTable.objects.filter(sitting=sitting).exists():
                raise ConsoleError(N_("Chiếu này đã có bàn Trung Quân."))
        else:
            if len(players) != SEATS:
                raise ConsoleError(
                    N_("Tổ Tôm Điếm cần đúng {n} người chơi (nhận được {got})."), n=SEATS, got=len(players)
                )
            sitting = sitting_open(
                game=GAME,
                rules=rules,
                mode=mode,
                players=list(players),
                title=name,
                club=club,
                created_by=acting_user(user=created_by),
                idempotency_key=idempotency_key,
            ).obj
            found = FestivalTable.objects.filter(sitting=sitting).first()
            if found is not None:  # an idempotent repeat of the same opening
                return found
        return FestivalTable.objects.create(
            sitting=sitting,
            event_table=event_table,
            name=name or str(sitting),
            trung_quan=trung_quan,
            created_by=acting_user(user=created_by),
            van_seq=sitting_state_json(sitting)["next_seq"],
            noc_left=initial_noc(sitting.game),
        )


#: The fields a display folds into its state by themselves; other changes (a ván started, the
#: chiếu's next canh) send the whole state.
FOLDED = frozenset({"noc_left", "turn", "dealer"})


def _changed(t: FestivalTable, fields: list[str]) -> FestivalTable:
    t.save(update_fields=fields)
    if FOLDED.issuperset(fields):
        publish(t.pk, EventType.STATE, {"change": {f: getattr(t, f) for f in fields}})
    else:
        publish(t.pk, EventType.STATE, {"state": table_state(t)})
    return t


def _seat(value: int | None, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= SEATS:
        raise ConsoleError(
            N_("{what} phải là chỗ ngồi từ 1 đến {n} (nhận được {value})."),
            what=what,
            n=SEATS,
            value=repr(value),
        )
    return value


@transaction.atomic
def noc_change(
    *, table: FestivalTable | int, delta: int | None = None, value: int | None = None
) -> FestivalTable:
    """Draw from the nọc (``delta=-1``), undo (``+1``) or set its count (``value``)."""
    t = locked(table=table)
    open_for_play(table=t)
    full = initial_noc(t.sitting.game)
    new = t.noc_left + (delta or 0) if value is None else value
    if not 0 <= new <= full:
        raise ConsoleError(N_("Nọc chỉ có từ 0 đến {full} quân (nhận được {got})."), full=full, got=new)
    t.noc_left = new
    return _changed(t, ["noc_left"])


@transaction.atomic
def turn_set(*, table: FestivalTable | int, seat: int | None = None, advance: bool = False) -> FestivalTable:
    """Give the turn to ``seat``, or pass it on counter-clockwise (``advance``)."""
    t = locked(table=table)
    not_final(sitting=t.sitting)
    if advance:
        t.turn = (t.turn or t.dealer or SEATS) % SEATS + 1
    else:
        t.turn = _seat(seat, gettext("Lượt"))
    return _changed(t, ["turn"])


@transaction.atomic
def dealer_set(*, table: FestivalTable | int, seat: int) -> FestivalTable:
    """Give cái to ``seat`` (it plays first)."""
    t = locked(table=table)
    not_final(sitting=t.sitting)
    t.dealer = _seat(seat, gettext("Nhà cái"))
    if t.van_started_at is None:
        t.turn = t.dealer
    return _changed(t, ["dealer", "turn"])


@transaction.atomic
def van_start(*, table: FestivalTable | int) -> FestivalTable:
    """Start the ván under way: full nọc, the dealer's turn, the timer running, last win cleared."""
    t = locked(table=table)
    _follow_canh(t)
    open_for_play(table=t)
    t.noc_left = initial_noc(t.sitting.game)
    t.turn = t.dealer
    t.van_started_at = timezone.now()
    t.announcement = None
    return _changed(t, [*FOLLOW_FIELDS, "announcement"])


def _announcement(t: FestivalTable, body: Mapping[str, Any]) -> dict[str, Any]:
    van, state = body["van"], body["sitting"]
    positions = dict(t.sitting.seats.values_list("name", "position"))
    standings = sorted(
        ({"name": n, "balance": b} for n, b in state["balances"].items()), key=lambda r: -r["balance"]
    )
    return {
        "van_seq": van["seq"],
        "outcome": van["outcome"],
        "outcome_label": van["outcome_label"],
        "winner": van["winner"],
        "seat": positions.get(van["winner"]) if van["winner"] else None,
        "cuoc": cuoc_names(van["cuoc"]),
        "points": van["points"],
        "streak_label": van["streak_label"],
        "standings": standings,
        "at": timezone.now().isoformat(),
    }


def _current_canh(t: FestivalTable) -> int:
    """The sitting the table plays now: its event chiếu's current canh, else its own sitting."""
    if t.event_table_id is None:
        return t.sitting_id
    return Table.objects.filter(pk=t.event_table_id).values_list("sitting_id", flat=True).get()


def _seat_in(sitting_id: int, old_sitting_id: int, position: int | None) -> int | None:
    """Where the player at ``position`` of the old canh sits in the new one."""
    if position is None:
        return None
    player = Seat.objects.filter(sitting_id=old_sitting_id, position=position).values_list(
        "player_id", flat=True
    )
    return (
        Seat.objects.filter(sitting_id=sitting_id, player_id__in=player)
        .values_list("position", flat=True)
        .first()
        or position
    )


#: What :func:`_follow_canh` changes.
FOLLOW_FIELDS = ["sitting", "dealer", "turn", "van_seq", "noc_left", "van_started_at"]


def _follow_canh(t: FestivalTable) -> bool:
    """A table run for an event's chiếu (locked): when the chiếu has moved on to its next canh
    (after this console's ván or the event's own scorekeeper's), play on there: the same players,
    seated one place round, the one who held cái still holding it. Whether it moved."""
    current = _current_canh(t)
    if current == t.sitting_id:
        return False
    t.dealer = _seat_in(current, t.sitting_id, t.dealer)
    t.sitting = Sitting.objects.get(pk=current)
    t.van_seq = sitting_state_json(t.sitting)["next_seq"]
    t.turn = t.dealer
    t.noc_left = initial_noc(t.sitting.game)
    t.van_started_at = None
    return True


def van_finish(
    *,
    table: FestivalTable | int,
    seq: int,
    record: Mapping[str, Any],
    by: User | None,
    idempotency_key: str | None,
    sitting: int | None = None,
) -> Written[Van]:
    """Record the ván under way in the ledger (``van_record``) and announce it on the display.

    The winner (or, after a draw, the đầu kê) gets cái for the next ván (docs/rules.md §3). A repeat
    with the same key answers the first answer and changes nothing.

    A table run for an event's chiếu records through the event (:func:`event_van_record`: the
    round's ván count, the leaderboard) into the chiếu's current canh (``sitting``: the canh the
    console showed; a stale one only replays), and follows the chiếu when it moves on to its next
    canh: the same players, seated one place round, the winner still holding cái.
    """
    with transaction.atomic():  # catch up with a canh the chiếu moved on to elsewhere (kept if refused below)
        t = locked(table=table)
        if _follow_canh(t):
            _changed(t, FOLLOW_FIELDS)
    with transaction.atomic():
        t = locked(table=table)
        if t.event_table_id is None:
            written = van_record(
                sitting=t.sitting_id,
                seq=seq,
                record=record,
                idempotency_key=idempotency_key,
                entered_by=acting_user(user=by),
            )
        else:
            written = event_van_record(
                table=t.event_table_id,
                seq=seq,
                record=record,
                idempotency_key=idempotency_key,
                entered_by=acting_user(user=by),
                sitting=sitting or t.sitting_id,
            )
        if written.answer.replayed:
            return written
        body = written.answer.body
        t.announcement = _announcement(t, body)
        nxt = t.announcement["seat"]
        if nxt is None and record.get("dau_ke"):
            nxt = t.sitting.seats.filter(name=record["dau_ke"]).values_list("position", flat=True).first()
        t.dealer = nxt or t.dealer
        t.turn = t.dealer
        t.van_seq = body["sitting"]["next_seq"]
        t.noc_left = initial_noc(t.sitting.game)
        t.van_started_at = None
        _follow_canh(t)
        t.save(update_fields=[*FOLLOW_FIELDS, "announcement"])
        publish(t.pk, EventType.ANNOUNCE, {"announcement": t.announcement, "state": table_state(t)})
        return written
