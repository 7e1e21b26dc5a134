"""The events app's user-facing error classes in the one status table (:mod:`scoring.errors`,
which the ledger keeps without importing this app); registered from ``TournamentsConfig.ready``."""

from __future__ import annotations

from scoring.errors import BAD_INPUT, CONFLICT, THROTTLED, WRONG_CREDENTIAL, register
from tournaments.console.dealer import DealerError
from tournaments.console.services.errors import ConsoleError
from tournaments.online.netguard import DeliveryError, UnsafeUrl
from tournaments.online.services.webhooks import WebhookLimit
from tournaments.seating import SeatingError
from tournaments.services.events import EventFinished
from tournaments.services.rounds import PreviousRoundOpen
from tournaments.services.tokens import PinLocked, WrongPin
from tournaments.services.van import CanhMoved
from tournaments.services.van import EventFinished as VanAfterFinish

__all__ = ["register_all"]


def register_all() -> None:
    register(SeatingError, BAD_INPUT)
    register(DealerError, BAD_INPUT)
    register(ConsoleError, BAD_INPUT)
    register(UnsafeUrl, BAD_INPUT)
    register(DeliveryError, BAD_INPUT)
    register(WebhookLimit, THROTTLED)  # over a per-owner cap: ``Retry-After`` when waiting helps
    register(WrongPin, WRONG_CREDENTIAL)  # a table's wrong PIN, counted to the phone's lock-out
    register(PinLocked, THROTTLED)  # a phone locked out of the table's PIN
    register(EventFinished, CONFLICT)  # the results are final
    register(VanAfterFinish, CONFLICT)
    register(CanhMoved, CONFLICT)  # a stale page: the table moved on to another canh
    register(
        PreviousRoundOpen,
        CONFLICT,
        extra=lambda exc: {
            "round": exc.round_number,
            "tables": [{"id": t.pk, "number": t.number} for t in exc.tables],
        },
    )
