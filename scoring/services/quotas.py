"""Quotas of an account: clubs created, sittings imported, ván imported and ván
recorded per hour. A real club never meets them; an abuser (a new account scripting the API) is
stopped at them with a 429, a clear message and ``Retry-After``.

Each view calls one function of this module, after it has checked that the request may do what it
asks and before the write: :func:`charge` raises :class:`QuotaExceeded`, which the API's one
exception handler (``scoring/api/errors.py``) and, for the pages, ``scoring.middleware.QuotaMiddleware``
answer
with 429. Counting is :func:`scoring.services.throttle.spend`: one row per account and quota in the
database (a row lock; bounded keys), so every app server counts the same.

Who is not slowed: staff; anyone without an account (a table's PIN or QR link: the event's own
scorekeeping); and in their **own** club or festival (the organisers of a club for its sittings,
the organisers of an event for its tables) every quota but clubs is ``QUOTA_OWN_FACTOR`` times
higher, counted apart, so a festival's organiser recording or importing a whole festival is never
slowed, while a stranger's own new club (at most ``QUOTA_CLUBS_PER_HOUR`` of them) stays bounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from scoring.engine import N_
from scoring.models import Club, Sitting
from scoring.permissions import event_audits, organises, organises_club
from scoring.refusals import Refusal
from scoring.services.throttle import refund, spend

__all__ = ["CLUBS", "IMPORTS", "VAN", "Quota", "QuotaExceeded", "charge", "charge_import", "settle"]

#: Where a request keeps what it was charged, until its answer says whether to keep it (:func:`settle`).
CHARGES = "_quota_charges"

WINDOW = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Quota:
    name: str
    #: The setting that holds the limit per hour.
    setting: str
    #: What the account is told (a message code: placeholders limit, minutes, count, left).
    message: str
    #: Whether the own club/event's higher limit applies.
    own_higher: bool = True

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.setting))


CLUBS = Quota(
    "clubs",
    "QUOTA_CLUBS_PER_HOUR",
    N_(
        "Mỗi tài khoản chỉ lập được {limit} làng hoặc câu lạc bộ trong một giờ: hãy thử lại sau {minutes} phút."
    ),
    own_higher=False,
)
IMPORTS = Quota(
    "imports",
    "QUOTA_IMPORTS_PER_HOUR",
    N_("Mỗi tài khoản chỉ nhập được {limit} canh bài trong một giờ: hãy thử lại sau {minutes} phút."),
)
IMPORTED_VAN = Quota(
    "imported-van",
    "QUOTA_IMPORTED_VAN_PER_HOUR",
    N_(
        "Mỗi tài khoản chỉ nhập được {limit} ván trong một giờ; canh này có {count} ván mà giờ này "
        "chỉ còn nhập được {left} ván: hãy thử lại sau {minutes} phút."
    ),
)
VAN = Quota(
    "van",
    "QUOTA_VAN_PER_HOUR",
    N_("Mỗi tài khoản chỉ ghi được {limit} ván trong một giờ: hãy thử lại sau {minutes} phút."),
)


class QuotaExceeded(Refusal):
    """An account asked for more than its quota: answered 429 (``scoring/errors.py``) with
    ``Retry-After``; the message is the quota's, in the request's language."""

    code = "over_quota"

    def __init__(self, template: str, /, *, retry_after: int, **params: Any) -> None:
        super().__init__(template, **params)
        self.retry_after = retry_after


def _owns(user: Any, *, club: Club | None, sitting: Sitting | None) -> bool:
    """The account organises the club, the sitting's club, or the event the sitting is a table of."""
    if club is not None:
        return bool(organises.test(user, club))
    if sitting is None:
        return False
    return bool(organises_club.test(user, sitting) or event_audits.test(user, sitting))


def charge(
    request: HttpRequest | Any,
    quota: Quota,
    *,
    amount: int = 1,
    club: Club | None = None,
    sitting: Sitting | int | None = None,
    imported_van: int | None = None,
) -> None:
    """Count ``amount`` of ``quota`` for the request's account (in ``club`` or ``sitting``, which
    may be the account's own); :class:`QuotaExceeded` when it does not fit in this hour's. An import
    (``quota`` :data:`IMPORTS`) also counts its ``imported_van``."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.is_staff:
        return
    if isinstance(sitting, int):
        sitting = Sitting.objects.filter(pk=sitting).first()
    own = quota.own_higher and _owns(user, club=club, sitting=sitting)
    factor = settings.QUOTA_OWN_FACTOR if own else 1
    if imported_van is None:  # one quota: one statement, no transaction of its own (throttle.spend)
        taken = [_take(user, quota, amount=amount, factor=factor, own=own)]
    else:
        with transaction.atomic():  # both or neither: a refusal takes nothing from the account
            taken = [_take(user, quota, amount=amount, factor=factor, own=own)]
            taken.append(
                _take(user, IMPORTED_VAN, amount=imported_van, factor=factor, own=own, count=imported_van)
            )
    # Kept on the Django request (a DRF request wraps it), for the answer to settle.
    http = getattr(request, "_request", request)
    setattr(http, CHARGES, [*getattr(http, CHARGES, []), *taken])


def settle(request: HttpRequest, *, kept: bool) -> None:
    """After the answer: what the request was charged is given back unless the write happened
    (``kept``: a 2xx/3xx that is not an idempotent replay). A mistyped form or a refused ván does
    not use up an account's quota; concurrent requests were all counted before they wrote."""
    charges = getattr(request, CHARGES, None)
    if not charges or kept:
        return
    for key, amount, until in charges:
        refund(key, amount=amount, until=until)
    setattr(request, CHARGES, [])


def charge_import(
    request: HttpRequest | Any, *, body: Any, club: Club | None, sitting: Sitting | None
) -> None:
    """An import of the sitting in ``body`` (its ``van`` list), into ``club`` or an event table's
    ``sitting``: one of :data:`IMPORTS` and as many :data:`IMPORTED_VAN` as it has ván."""
    van = body.get("van") if isinstance(body, dict) else None
    charge(
        request, IMPORTS, club=club, sitting=sitting, imported_van=len(van) if isinstance(van, list) else 0
    )


def _take(
    user: Any, quota: Quota, *, amount: int, factor: int, own: bool, **params: Any
) -> tuple[str, int, Any]:
    limit = quota.limit * factor
    key = f"quota:{quota.name}{':own' if own else ''}:{user.pk}"
    spent = spend(key, amount=amount, limit=limit, window=WINDOW)
    if spent.taken:
        return key, amount, spent.until
    seconds = max(1, math.ceil((spent.until - timezone.now()).total_seconds()))
    raise QuotaExceeded(
        quota.message,
        retry_after=seconds,
        limit=limit,
        minutes=max(1, math.ceil(seconds / 60)),
        left=max(0, limit - spent.spent),
        **params,
    )
