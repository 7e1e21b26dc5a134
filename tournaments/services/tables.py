"""A table's canh and seats during its round: the next canh when one reaches its ván count,
closing the table when the round is over, and a substitute before the first ván.

Every write to the ledger goes through the scoring app's services (``sitting_open``,
``sitting_settle_up``); this module only links the resulting sittings to the table.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.engine import N_, EngineError
from scoring.models import Player, Seat, Van
from scoring.services.people import User, acting_user
from scoring.services.sittings import sitting_open, sitting_settle_up
from tournaments.models import Event, Registration, RegistrationStatus, RoundFormat, Table, TableSitting
from tournaments.services.events import ensure_running
from tournaments.services.leaderboard import ledger_changed

__all__ = ["locked_table", "maybe_next_canh", "table_close", "table_substitute"]


def locked_table(*, table: Table | int) -> Table:
    """The table's row, locked: writes to one table (its canh roll-over, closing, a substitute)
    are serialised. Lock order everywhere: table, then sitting, then event."""
    pk = table.pk if isinstance(table, Table) else table
    found = (
        Table.objects.select_for_update(of=("self",)).select_related("event", "round").filter(pk=pk).first()
    )
    if found is None:
        raise EngineError(N_("Không có chiếu số {pk}."), pk=pk)
    return found


def table_van(*, table: Table) -> int:
    """The current ván of every canh of the table."""
    return Van.objects.filter(sitting__event_canh__table=table, is_current=True).count()


def round_full(*, table: Table, event: Event) -> bool:
    """Fixed-ván rounds: the table has played the round's ván."""
    return event.round_format == RoundFormat.VAN and table_van(table=table) >= event.van_per_round


def _seated(sitting_id: int) -> list[Player]:
    seats = Seat.objects.filter(sitting_id=sitting_id).select_related("player").order_by("position")
    return [s.player for s in seats]


def _open_canh(
    table: Table, event: Event, players: list[Player], number: int, by: User | None
) -> TableSitting:
    sitting = sitting_open(
        game=event.game,
        rules=event.rules.rules(),
        mode=event.mode,
        players=players,
        created_by=by,
        needs_confirmation=event.confirmation_required,
        title=f"{event.name} · Vòng {table.round.number} · Chiếu {table.number}"
        + (f" · Canh {number}" if number > 1 else ""),
    ).obj
    return TableSitting.objects.create(table=table, sitting=sitting, event=event, number=number)


def maybe_next_canh(*, table: Table, event: Event, by: User | None = None) -> TableSitting | None:
    """After a ván at the table's current canh (table locked): when the canh has reached the
    event's ván per canh and the round goes on, open the next canh with the same players, seated
    one place round (the next player leads)."""
    limit = event.van_per_sitting
    if not limit or Van.objects.filter(sitting_id=table.sitting_id, is_current=True).count() < limit:
        return None
    if round_full(table=table, event=event) or (
        table.ends_at is not None and timezone.now() >= table.ends_at
    ):
        return None
    players = _seated(table.sitting_id)
    number = TableSitting.objects.filter(table=table).count() + 1
    canh = _open_canh(table, event, players[1:] + players[:1], number, by)
    table.sitting_id = canh.sitting_id
    table.save(update_fields=["sitting"])
    return canh


def table_close(*, table: Table | int, closed_by: User | None) -> Table:
    """Close the table (the round is over, or its time is up): settle up every canh still open
    (through the scoring service) and take no more ván. Closing twice changes nothing."""
    with transaction.atomic():
        the_table = locked_table(table=table)
        if the_table.closed_at is not None:
            return the_table
        ensure_running(event=the_table.event_id)
        canh = list(TableSitting.objects.filter(table=the_table).select_related("sitting").order_by("number"))
        for c in canh:
            if c.sitting.ended_at is None:
                sitting_settle_up(sitting=c.sitting_id, settled_by=closed_by, idempotency_key=None)
        the_table.closed_at = timezone.now()
        the_table.closed_by = acting_user(user=closed_by)
        the_table.save(update_fields=["closed_at", "closed_by"])
    return the_table


def _substitute_check(table: Table, out_id: int, reg: Registration) -> None:
    if table.closed_at is not None:
        raise EngineError(N_("Chiếu đã đóng; không thay người được nữa."))
    if (
        TableSitting.objects.filter(table=table).count() > 1
        or Van.objects.filter(sitting__event_canh__table=table).exists()
    ):
        raise EngineError(N_("Chiếu đã ghi ván; chỉ thay người được trước ván đầu tiên."))
    if reg.event_id != table.event_id or reg.status == RegistrationStatus.WITHDRAWN:
        raise EngineError(N_("{name} không có trong danh sách thi đấu của giải."), name=reg.player.name)
    if not Seat.objects.filter(sitting_id=table.sitting_id, player_id=out_id).exists():
        raise EngineError(N_("Người được thay không ngồi ở chiếu này."))
    if Seat.objects.filter(sitting__event_table__round=table.round, player=reg.player).exists():
        raise EngineError(N_("{name} đã ngồi ở một chiếu của vòng này."), name=reg.player.name)


def table_substitute(
    *, table: Table | int, out_player: int, substitute: Registration, by: User | None = None
) -> Table:
    """A registered player replaces a withdrawn or absent one before the table's first ván.

    The scoring app has no service to change a sitting's seats, so the table is seated again:
    a new sitting (``sitting_open``) with the substitute in the same seat, under their own name,
    becomes the table's canh 1; the unused sitting is ended through ``sitting_settle_up`` (it has
    no ván, so nothing is posted). The substitute is checked in; the replaced player sits out
    the round (a bye).
    """
    with transaction.atomic():
        the_table = locked_table(table=table)
        ensure_running(event=the_table.event_id)
        reg = Registration.objects.select_related("player").get(pk=substitute.pk)
        _substitute_check(the_table, out_player, reg)
        event = the_table.event
        old = the_table.sitting_id
        players = [reg.player if p.pk == out_player else p for p in _seated(old)]
        canh = TableSitting.objects.get(sitting_id=old)
        canh.delete()
        fresh = _open_canh(the_table, event, players, 1, by)
        the_table.sitting_id = fresh.sitting_id
        the_table.save(update_fields=["sitting"])
        sitting_settle_up(sitting=old, settled_by=by, idempotency_key=None)
        rnd = the_table.round
        rnd.byes = [p for p in rnd.byes if p != reg.player_id] + [out_player]
        rnd.save(update_fields=["byes"])
        if reg.status != RegistrationStatus.CHECKED_IN:
            Registration.objects.filter(pk=reg.pk).update(
                status=RegistrationStatus.CHECKED_IN, checked_in_at=timezone.now()
            )
        ledger_changed(event_id=event.pk, sittings=[fresh.sitting_id])
    return the_table
