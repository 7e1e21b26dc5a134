"""Giving a signal: stored with its time, seat and ván, idempotent by key, sent to the displays."""

from __future__ import annotations

from typing import Any

from scoring.engine import N_
from scoring.services.idempotency import Answer, Outcome, check_key, run_once
from scoring.services.people import User, Written, acting_user
from tournaments.console.broadcast import EventType, publish
from tournaments.console.catalogue import SIGNALS, TRUNG_QUAN
from tournaments.console.models import FestivalTable, Signal, SignalEvent, SignalKind
from tournaments.console.selectors import seat_names, signal_json, signals_for, table_state
from tournaments.console.services.errors import ConsoleError
from tournaments.console.services.tables import locked, open_for_play

__all__ = ["ensure_catalogue", "parse_seat", "signal_send"]

SEATS = 5
_TQ_WORDS = {"trung_quan", "trung-quan", "trungquan", "tq", "trung quân"}


def ensure_catalogue() -> int:
    """Create the seeded signals that are missing (the data migration's rows); returns how many."""
    made = 0
    for row in SIGNALS:
        _, created = Signal.objects.get_or_create(
            slug=row["slug"], defaults={k: v for k, v in row.items() if k != "slug"}
        )
        made += created
    return made


def parse_seat(value: Any) -> int:
    """A seat from a request: 1–5, or ``"trung_quan"`` (stored as 0)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TQ_WORDS:
            return TRUNG_QUAN
        if text.isascii() and text.isdigit():  # not "²": a digit to str.isdigit, not to int()
            value = int(text)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= SEATS:
        return value
    raise ConsoleError(
        N_('Chỗ ngồi phải là số từ 1 đến {n} hoặc "trung_quan" (nhận được {value}).'),
        n=SEATS,
        value=repr(value),
    )


def _find_signal(table: FestivalTable, slug: Any) -> Signal:
    if not isinstance(slug, str) or not slug.strip():
        raise ConsoleError(N_('Hãy gửi mã hiệu trong "signal", ví dụ "tung-tung".'))
    found = signals_for(table).filter(slug=slug.strip().lower()).first()
    if found is None:
        known = ", ".join(signals_for(table).values_list("slug", flat=True))
        raise ConsoleError(
            N_("Không có hiệu '{slug}'. Các hiệu của chiếu này: {known}."), slug=slug, known=known
        )
    return found


def _check_who(signal: Signal, seat: int) -> None:
    if signal.kind == SignalKind.BIG_DRUM and seat != TRUNG_QUAN:
        raise ConsoleError(
            N_('{signal} là trống cái của Trung Quân: hãy gửi với chỗ "trung_quan".'), signal=signal.label
        )
    if signal.kind != SignalKind.BIG_DRUM and seat == TRUNG_QUAN:
        raise ConsoleError(
            N_("{signal} là hiệu của người chơi: hãy chọn chỗ từ 1 đến {n}."), signal=signal.label, n=SEATS
        )


def signal_send(
    *,
    table: FestivalTable | int,
    seat: Any,
    signal: Any,
    by: User | None = None,
    idempotency_key: str | None = None,
) -> Written[SignalEvent]:
    """Store a signal given at ``seat`` during the ván under way and send it to the displays.

    A repeat with the same key answers the first answer and stores nothing; the same key with
    another seat or signal raises ``IdempotencyMismatch`` (HTTP 422).
    """
    pk = table.pk if isinstance(table, FestivalTable) else table
    the_seat = parse_seat(seat)
    key = check_key(idempotency_key)
    box: dict[str, Any] = {}

    def lock() -> None:
        box["table"] = locked(pk)

    def action() -> Answer:
        t = box["table"]
        the_signal = _find_signal(t, signal)  # an error rolls back and stores no key
        _check_who(the_signal, the_seat)
        open_for_play(t)
        event = box["event"] = SignalEvent.objects.create(
            table=t,
            sitting_id=t.sitting_id,
            van_seq=t.van_seq,
            seat=the_seat,
            signal=the_signal,
            noc_left=t.noc_left,
            created_by=acting_user(by),
            idempotency_key=key or "",
        )
        if t.announcement is not None:
            # the last ván's result gives way to play: its banner covered the seats on the display
            # until "Bắt đầu ván" while the new ván's signals went to the ticker only (issue 31)
            t.announcement = None
            t.save(update_fields=["announcement"])
        names = seat_names(t)
        body = signal_json(event, names)
        publish(t.pk, EventType.SIGNAL, {"signal": body, "state": table_state(t, names=names)})
        return Answer(Outcome.CREATED, body)

    slug = signal.strip().lower() if isinstance(signal, str) else signal
    answer = run_once(
        key=key,
        operation="console_signal",
        target=pk,
        payload={"seat": the_seat, "signal": slug},
        action=action,
        lock=lock,
    )
    event = box.get("event")
    if answer.replayed or event is None:
        event = SignalEvent.objects.select_related("signal").get(pk=answer.body["id"])
    return Written(event, answer)
