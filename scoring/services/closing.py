"""Closing a period of the club book: the fewest transfers over every open balance of the period's
canh, recorded in the ledger like a canh's settle-up; undone only by a correction.

:func:`period_close` (after the confirmation page showed the plan and its fingerprint):

1. locks the club's row, then the period's canh (in id order, as every write to a canh locks it
   first), so no ván slips in between the plan and its postings;
2. re-reads the open balances from the ledger; if they differ from what the treasurer confirmed
   (``expected``, the plan's fingerprint) it refuses (:class:`CloseChanged`, HTTP 409) with nothing
   written;
3. in each canh still open: gives back what its pool and gà pot hold (as :func:`sitting_settle_up`
   does) and posts one settlement transaction that brings every seat to zero (pairs of postings,
   as few as the engine's settle-up finds in that canh), then ends the canh; each transaction is
   linked to the close (:class:`PeriodCloseEntry`);
4. keeps the plan itself on the :class:`PeriodClose`: the members' open balances and the fewest
   member-to-member transfers that settle them (the engine's ``settle_up``: at most n − 1).

:func:`period_close_reverse` undoes a close by reversing each of its transactions (new reversing
transactions, never a delete: the database refuses one) and opens again the canh it ended.
Both are idempotent by key and announce every canh they touched (:func:`scoring.services.sittings.announce`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import timezone
from django.utils.functional import lazy

from scoring.engine import N_, EngineError, Transfer, settle_up
from scoring.i18n import LEDGER
from scoring.models import Club, PeriodClose, PeriodCloseEntry, Sitting, TransactionKind
from scoring.periods import Period, in_vietnamese, stored_label_shown
from scoring.selectors.book import Book, Canh, book, member_open
from scoring.services.idempotency import Answer, Outcome, run_once
from scoring.services.ledger import post_transfers, reverse_transaction, seats_by_name
from scoring.services.people import User, Written
from scoring.services.sittings import announce

__all__ = ["CloseChanged", "CloseError", "close_json", "fingerprint", "period_close", "period_close_reverse"]


#: A close's label (stored in Vietnamese) as a message's parameter: in the language the message is
#: read in, when it is its period's computed label.
label_shown = lazy(stored_label_shown, str)


class CloseError(EngineError):
    """A close (or its correction) the book refuses (nothing to close, already undone…)."""

    code = "close_refused"


class CloseChanged(CloseError):
    """The open balances changed since the treasurer confirmed the plan (HTTP 409)."""

    code = "close_changed"


def fingerprint(*, the_book: Book) -> str:
    """What a close of this book would post, as a short hash: each canh's open seats, pots and
    whether it is still running. The confirmation page sends it back with the treasurer's yes."""
    state = [[c.id, c.ended, sorted(c.open.items()), c.pool, c.ga_trong] for c in the_book.canh]
    return hashlib.sha256(json.dumps(state, separators=(",", ":")).encode()).hexdigest()[:16]


def close_json(*, close: PeriodClose, reversed_: bool = False) -> dict[str, Any]:
    return {
        "id": close.pk,
        "club": close.club.slug,
        "from": close.date_from.isoformat(),
        "to": close.date_to.isoformat(),
        "label": close.label,
        "settle_up": [{"from": t["from"], "to": t["to"], "amount": t["amount"]} for t in close.transfers],
        "ended": list(close.ended),
        "created_at": close.created_at.isoformat(),
        "reversed": reversed_,
    }


def _lock(club: Club, sitting_ids: list[int] | None = None, period: Period | None = None) -> None:
    """The club's row, then its canh (the period's, or ``sitting_ids``) in id order."""
    Club.objects.select_for_update().get(pk=club.pk)
    sittings = Sitting.objects.filter(club=club)
    if period is not None:
        start, end = period.bounds()
        sittings = sittings.filter(created_at__gte=start, created_at__lt=end)
    if sitting_ids is not None:
        sittings = sittings.filter(pk__in=sitting_ids)
    list(sittings.select_for_update(no_key=True).order_by("pk").values_list("pk", flat=True))


def _clearing(c: Canh, label: str, close_id: int) -> list[Transfer]:
    """Transfers inside one canh that bring every seat's balance (pots given back) to zero: a
    debtor's balance goes up by what a creditor's goes down (as a canh's own settle-up posts them)."""
    names = {seat: name for seat, _player, name in c.seats}
    after = {names[seat]: amount for seat, amount in c.open_after_returns().items() if amount}
    return [
        Transfer(
            t.to,
            t.from_,
            t.amount,
            LEDGER["close_clearing"].format(
                close=label, payer=t.from_, payee=t.to, amount=t.amount, id=close_id
            ),
        )
        for t in settle_up(after)
    ]


def period_close(
    *,
    club: Club,
    period: Period,
    closed_by: User | None,
    expected: str | None = None,
    idempotency_key: str | None = None,
) -> Written[PeriodClose]:
    """Close ``period``: settle every open balance of its canh with the fewest transfers between
    members and end its canh (see the module's text). ``expected``: the fingerprint the treasurer
    confirmed (None: close whatever is open now, as the demo and tests do)."""
    box: dict[str, Any] = {}
    period = in_vietnamese(period)  # the ledger's reasons are Vietnamese, whatever the page's language

    def lock() -> None:
        _lock(club, period=period)

    def action() -> Answer:
        the_book = book(club, period, with_ratings=False, with_closes=False)
        if expected is not None and fingerprint(the_book=the_book) != expected:
            raise CloseChanged(
                N_(
                    "Số dư của kỳ đã thay đổi từ lúc bạn xem (có ván mới hoặc ván được sửa): hãy xem "
                    "lại kế hoạch chuyển điểm rồi xác nhận lần nữa."
                )
            )
        members = {m.player_id: m for m in the_book.members}
        touched = [c for c in the_book.canh if not c.ended or any(c.open.values())]
        if not touched:
            raise CloseError(
                N_("Không có gì để chốt trong kỳ {label}: mọi canh đã kết thúc và không còn số dư nào."),
                label=label_shown(period.label),
            )
        balances = member_open(the_book.canh)
        plan = [
            {
                "from": members[int(t.from_)].name,
                "from_player": int(t.from_),
                "to": members[int(t.to)].name,
                "to_player": int(t.to),
                "amount": t.amount,
            }
            for t in settle_up({str(p): amount for p, amount in balances.items()})
        ]
        close = PeriodClose.objects.create(
            club=club,
            date_from=period.start,
            date_to=period.end,
            label=period.label[:120],
            transfers=plan,
            balances={str(p): amount for p, amount in sorted(balances.items())},
            ended=[c.id for c in touched if not c.ended],
            created_by=closed_by,
        )
        sittings = Sitting.objects.in_bulk([c.id for c in touched])
        now = timezone.now()
        for c in touched:
            sitting = sittings[c.id]
            seats = seats_by_name(sitting=sitting)
            posted = [
                post_transfers(
                    sitting=sitting,
                    kind=TransactionKind.SETTLEMENT,
                    seats=seats,
                    created_by=closed_by,
                    transfers=c.pot_returns() if not c.ended else [],
                    reason=LEDGER["close_returned"].format(close=close.label),
                ),
                post_transfers(
                    sitting=sitting,
                    kind=TransactionKind.SETTLEMENT,
                    seats=seats,
                    created_by=closed_by,
                    transfers=_clearing(c, close.label, close.pk),
                    reason=LEDGER["close"].format(close=close.label),
                ),
            ]
            PeriodCloseEntry.objects.bulk_create(
                PeriodCloseEntry(close=close, transaction=t) for t in posted if t
            )
        Sitting.objects.filter(pk__in=close.ended, ended_at__isnull=True).update(ended_at=now)
        announce(sitting_ids=[c.id for c in touched], action="period_close")
        box["close"] = close
        return Answer(Outcome.CREATED, close_json(close=close))

    answer = run_once(
        key=idempotency_key,
        operation="period_close",
        target=club.pk,
        payload={"from": period.start.isoformat(), "to": period.end.isoformat(), "expected": expected},
        action=action,
        lock=lock,
    )
    return Written(box.get("close"), answer, load=lambda: PeriodClose.objects.get(pk=answer.body["id"]))


def period_close_reverse(
    *,
    close: PeriodClose | int,
    reason: str,
    reversed_by: User | None,
    idempotency_key: str | None = None,
) -> Written[PeriodClose]:
    """Undo a close by a correction: reversing transactions for each of its transactions (the
    originals stay), and the canh it ended are open again."""
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise CloseError(N_("Hãy ghi lý do đảo chốt sổ."))
    pk = close.pk if isinstance(close, PeriodClose) else close
    found = PeriodClose.objects.select_related("club").filter(pk=pk).first()
    if found is None:
        raise CloseError(N_("Không có lần chốt sổ số {pk}."), pk=pk)

    def lock() -> None:
        sittings = set(found.entries.values_list("transaction__sitting_id", flat=True)) | set(found.ended)
        _lock(found.club, sitting_ids=sorted(sittings))

    def action() -> Answer:
        entries = list(found.entries.select_related("transaction").order_by("-id"))
        if any(e.reversal for e in entries):
            raise CloseError(N_("Lần chốt sổ {label} đã được đảo rồi."), label=label_shown(found.label))
        for entry in entries:
            reversal = reverse_transaction(
                txn=entry.transaction,
                reason=LEDGER["close_reversed"].format(close=found.label, text=reason),
                created_by=reversed_by,
            )
            PeriodCloseEntry.objects.create(close=found, transaction=reversal, reversal=True)
        Sitting.objects.filter(pk__in=found.ended).update(ended_at=None)
        touched = sorted({e.transaction.sitting_id for e in entries})
        announce(sitting_ids=touched, action="period_close_reverse")
        return Answer(Outcome.CHANGED, close_json(close=found, reversed_=True))

    answer = run_once(
        key=idempotency_key,
        operation="period_close_reverse",
        target=pk,
        payload={"reason": reason},
        action=action,
        lock=lock,
    )
    return Written(found, answer)
