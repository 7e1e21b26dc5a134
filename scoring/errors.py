"""Every user-facing error class, its HTTP status and its stable code: the one table.

A user error is an :class:`~scoring.engine.EngineError` (or a subclass): its message (a code and
parameters, translated where it is shown) and :attr:`~scoring.engine.EngineError.code`, a stable
machine code (``snake_case``, the same in every language; a raise site may give a finer one). The
engine and the services know nothing of HTTP: the status each class answers with is here, and only
here. :func:`scoring.respond.respond` answers with it, for the API (its exception handler) and the
pages alike; nothing else chooses a status for a user error (``tests/test_one_error_path.py``).

The events app (which the ledger never imports) registers its classes with :func:`register`
(``tournaments/errors.py``, from its ``AppConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scoring.backup.format import BackupError
from scoring.engine import (
    CardError,
    ConflictError,
    CuocError,
    EngineError,
    GameError,
    HandError,
    RuleError,
    SettlementError,
)
from scoring.periods import PeriodError
from scoring.refusals import BodyTooLarge, Missing, NotAllowed, NotSignedIn, Refusal
from scoring.services.closing import CloseChanged, CloseError
from scoring.services.idempotency import IdempotencyMismatch
from scoring.services.ledger import AmountOutOfRange
from scoring.services.quotas import QuotaExceeded
from scoring.services.replay import BadVan, ReplayConflict
from scoring.services.review import NoSuchVan, ReviewConflict, ReviewRefused
from scoring.services.roles import RoleError
from scoring.services.rules import RuleSetTaken
from scoring.services.van import ResultsFinal, SequenceConflict, SittingClosed

__all__ = [
    "BAD_INPUT",
    "CONFLICT",
    "KEY_REUSED",
    "NOT_ALLOWED",
    "NOT_FOUND",
    "NOT_SIGNED_IN",
    "STATUS",
    "THROTTLED",
    "TOO_LARGE",
    "WRONG_CREDENTIAL",
    "body_of",
    "code_of",
    "register",
    "status_of",
]

#: A mistake in what was sent (a page's form, an API body): the status of every user error that
#: is not a conflict with the state, a refusal or a missing thing.
BAD_INPUT = 400
CONFLICT = 409
#: A repeat of an idempotency key with a different request.
KEY_REUSED = 422
#: Refusals (``scoring/refusals.py``): signing in would help; signed in, but not allowed; no such
#: thing; a body refused unread; a quota or a lock-out that waiting lifts (``Retry-After``).
NOT_SIGNED_IN = 401
#: A refused credential that is not an account's (a table's wrong PIN), counted to a lock-out.
WRONG_CREDENTIAL = 422
NOT_ALLOWED = 403
NOT_FOUND = 404
TOO_LARGE = 413
THROTTLED = 429

#: The status of each user-facing error class (its own entry: a subclass is listed too).
STATUS: dict[type[EngineError], int] = {
    EngineError: BAD_INPUT,
    # the engine's
    CardError: BAD_INPUT,
    GameError: BAD_INPUT,
    RuleError: BAD_INPUT,
    CuocError: BAD_INPUT,
    ConflictError: BAD_INPUT,
    HandError: BAD_INPUT,
    SettlementError: BAD_INPUT,
    # the ledger's
    PeriodError: BAD_INPUT,
    BackupError: BAD_INPUT,
    AmountOutOfRange: BAD_INPUT,
    RuleSetTaken: BAD_INPUT,
    RoleError: BAD_INPUT,
    CloseError: BAD_INPUT,
    CloseChanged: CONFLICT,  # the balances moved since the plan was confirmed
    IdempotencyMismatch: KEY_REUSED,
    SequenceConflict: CONFLICT,  # a ván number someone else took; the state comes with it
    SittingClosed: CONFLICT,
    ResultsFinal: CONFLICT,
    ReviewRefused: NOT_ALLOWED,
    ReviewConflict: CONFLICT,
    NoSuchVan: NOT_FOUND,
    BadVan: KEY_REUSED,  # a replayed ván the engine refuses: the request was read, its content is not
    ReplayConflict: CONFLICT,
    # refusals: the request is turned away before what it sent is looked at
    Refusal: NOT_ALLOWED,
    NotSignedIn: NOT_SIGNED_IN,
    NotAllowed: NOT_ALLOWED,
    Missing: NOT_FOUND,
    BodyTooLarge: TOO_LARGE,
    QuotaExceeded: THROTTLED,  # an account over its hourly quota, with ``Retry-After``
}

#: Extra fields of an error's JSON body, by class (the first of the error's MRO listed wins).
EXTRA: dict[type[EngineError], Callable[[Any], Mapping[str, Any]]] = {
    SequenceConflict: lambda exc: {"state": exc.state} if exc.state else {},
    BadVan: lambda exc: {"van": exc.seq},
}


def register(
    kind: type[EngineError], status: int, *, extra: Callable[[Any], Mapping[str, Any]] | None = None
) -> None:
    """Add an app's error class to the table (the events app's, which the ledger cannot import)."""
    STATUS[kind] = status
    if extra is not None:
        EXTRA[kind] = extra


def _first(error: EngineError | type[EngineError], table: Mapping[type[EngineError], Any]) -> Any:
    for kind in (error if isinstance(error, type) else type(error)).__mro__:
        if kind in table:
            return table[kind]
    return None


def status_of(error: EngineError | type[EngineError]) -> int:
    """The HTTP status that ``error`` (or any error of that class) answers with, on a page and on
    the API alike."""
    return int(_first(error, STATUS) or BAD_INPUT)


def code_of(error: EngineError) -> str:
    """The error's stable machine code (``error.code``: the raise site's, else its class's)."""
    return error.code


def body_of(error: EngineError) -> dict[str, Any]:
    """The JSON body of ``error``: ``{"error": message, "code": code, …its extra fields}``."""
    extra = _first(error, EXTRA)
    return {"error": error.message, "code": code_of(error), **(extra(error) if extra else {})}
