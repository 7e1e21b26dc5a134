"""Idempotent writes (Stripe-like; ARCHITECTURE.md practice 7).

A write carries a client-generated key. The first request with a key runs and its answer (what it
did, :class:`Outcome`, and its JSON body: the view says it in HTTP) is stored with the key, in the
same database transaction as the write. A repeat with the same key and the same request gets the
stored answer and writes nothing; the
same key with a different request is refused (:class:`IdempotencyMismatch`). Failed
requests store nothing, so a corrected retry may reuse the key.

Keys belong to their caller (:func:`caller_scope`): an account, or a device without one (a table
PIN's or QR link's phone, by its session), so another caller sending the same key and body is not
answered with someone else's answer; it runs as its own request. The caller is
the request being served (:func:`serving`, bound once per request by
``scoring.middleware.CallerMiddleware``, as django-simple-history's middleware does for its
history user); outside any request (commands, tasks) the scope is empty.

Concurrency: a service locks its target row (the sitting) *before* :func:`run_once` looks the
key up, so concurrent repeats are serialised and each sees the first one's committed answer.
Writes without a lockable target rely on the key's unique index: the loser of the race gets an
IntegrityError, its transaction is rolled back and it is answered from the winner's row.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, IntegrityError, transaction

from scoring.engine import N_, EngineError
from scoring.models import IdempotencyKey
from scoring.services import rows

__all__ = [
    "Answer",
    "IdempotencyMismatch",
    "Outcome",
    "caller_scope",
    "check_key",
    "request_hash",
    "run_once",
    "serving",
]

MAX_KEY_LENGTH = 255


class IdempotencyMismatch(EngineError):
    """The key was already used for a different request."""

    code = "idempotency_mismatch"


class Outcome(StrEnum):
    """What a write did, a domain fact (the view or API says it in HTTP: ``scoring.respond``)."""

    #: Something new was written (a sitting, a ván, a correction, a club, a player…).
    CREATED = "created"
    #: Something that existed was changed (a ván confirmed, a sitting settled, a close reversed).
    CHANGED = "changed"
    #: The work was queued for the bulk lane (a big import's job).
    QUEUED = "queued"


#: How an outcome is kept in ``IdempotencyKey.status`` (a number: the rows written before outcomes
#: hold these values, which a repeat reads back).
_STORED = {Outcome.CHANGED: 200, Outcome.CREATED: 201, Outcome.QUEUED: 202}
_READ = {number: outcome for outcome, number in _STORED.items()}


@dataclass(frozen=True, slots=True)
class Answer:
    """What a write answered: what it did and its JSON body; ``replayed`` for a repeat."""

    outcome: Outcome
    body: dict[str, Any]
    replayed: bool = False


#: The request being served in this context (None outside any request).
_serving: ContextVar[Any] = ContextVar("sotom_serving_request", default=None)


@contextlib.contextmanager
def serving(*, request: Any) -> Iterator[None]:
    """Run the block as the handling of ``request`` (its caller owns the keys used meanwhile)."""
    token = _serving.set(request)
    try:
        yield
    finally:
        _serving.reset(token)


def caller_scope(*, request: Any = None) -> str:
    """Whose keys these are: ``user:<id>`` for an account (by session or token: DRF sets the user it
    authenticated on the request), ``device:<hash>`` for a session without an account (a table PIN's
    phone), ``anonymous`` for neither, ``""`` outside any request."""
    request = request if request is not None else _serving.get()
    if request is None:
        return ""
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None)
    if session_key:
        return "device:" + hashlib.sha256(session_key.encode()).hexdigest()[:40]
    return "anonymous"


def check_key(*, key: str | None) -> str | None:
    """Validate a client's key (None: the caller chose not to send one)."""
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise EngineError(
            N_("Khóa chống gửi lặp (Idempotency-Key) phải có 1 đến {most} ký tự in được."),
            most=MAX_KEY_LENGTH,
        )
    return key


def request_hash(*, operation: str, target: Any, payload: Any) -> str:
    """sha256 of the canonical JSON of what the request asks for."""
    blob = json.dumps(
        {"operation": operation, "target": target, "payload": payload},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _stored(scope: str, key: str, operation: str, digest: str) -> Answer | None:
    row = rows.select_one(model=IdempotencyKey, where={"scope": scope, "key": key})
    if row is None:
        return None
    if row.operation != operation or row.request_hash != digest:
        raise IdempotencyMismatch(
            N_("Khóa chống gửi lặp này đã được dùng cho một yêu cầu khác; hãy tạo khóa mới cho yêu cầu mới.")
        )
    return Answer(_READ[row.status], row.response, replayed=True)


def _plain_json(body: dict[str, Any]) -> dict[str, Any]:
    """The body as it reads back from storage (dates as ISO strings), so repeats answer the same."""
    return json.loads(json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False))


def run_once(
    *,
    key: str | None,
    operation: str,
    target: Any,
    payload: Any,
    action: Callable[[], Answer],
    lock: Callable[[], object] | None = None,
    undo_lock: bool = False,
    read_key_first: bool = True,
) -> Answer:
    """Run ``action`` once per key, in one transaction (after ``lock``, if given).

    ``undo_lock``: ``lock`` writes (an UPDATE that locks the row and numbers the write), so a
    repeat rolls the transaction back instead of committing it.

    ``read_key_first=False`` (the busiest writes: a ván, a signal) skips the key's read before
    ``action``: the key's unique index catches a repeat when its row goes in, and a repeat that
    ``action`` refuses (the ván's number is taken now) is looked up after the refusal. Either way
    the transaction rolls back and the stored answer is given, as when the key is read first; a
    first call saves a statement, a repeat costs ``action`` once more. Only for actions whose
    effects outside the database wait for the commit (``transaction.on_commit``) and that are
    cheap to run again.

    ``target`` and ``payload`` identify the request (their hash is compared on a repeat); the key
    is the caller's (:func:`caller_scope`).
    Exceptions raised by ``action`` roll everything back and store nothing.
    """
    key = check_key(key=key)
    scope = caller_scope()
    digest = request_hash(operation=operation, target=target, payload=payload)
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                if lock is not None:
                    lock()
                if key is not None and (read_key_first or attempt == 2):
                    stored = _stored(scope, key, operation, digest)
                    if stored is not None:
                        if undo_lock:
                            transaction.set_rollback(True)
                        return stored
                answer = action()
                answer = Answer(answer.outcome, _plain_json(answer.body))
                if key is not None:
                    rows.insert(
                        objs=[
                            IdempotencyKey(
                                scope=scope,
                                key=key,
                                operation=operation,
                                request_hash=digest,
                                status=_STORED[answer.outcome],
                                response=answer.body,
                            )
                        ]
                    )
                return answer
        except Exception as exc:
            # Lost a race on the key's unique index, or (key not read first) a repeat: answer from
            # the stored row, read in the second attempt.
            # (A database error other than the index's is not a repeat: the connection may be gone.)
            repeat_possible = isinstance(exc, IntegrityError) or (
                not read_key_first and not isinstance(exc, DatabaseError)
            )
            if (
                attempt == 2
                or key is None
                or not repeat_possible
                or not IdempotencyKey.objects.filter(scope=scope, key=key).exists()
            ):
                raise
    raise AssertionError("unreachable")  # pragma: no cover
