"""``{% van_review v sitting as r %}``: what the two-person confirmation partial needs for one ván
(``templates/scoring/_van_review.html``), whoever's page includes it.

``v`` is a ván as :func:`scoring.selectors.ledger.van_json` shows it; ``sitting`` the sitting it
belongs to, or None for a badge without buttons. Whether the request may review the sitting
(``scoring.permissions.can(request, REVIEW, sitting)``) is asked once per request and sitting.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django import template

from scoring.models import Sitting, VanStatus
from scoring.permissions import REVIEW, can

register = template.Library()


def _may_review(request: Any, sitting: Sitting) -> bool:
    cache: dict[int, bool] = request.__dict__.setdefault("_van_review_may", {})
    if sitting.pk not in cache:
        cache[sitting.pk] = can(request, REVIEW, sitting)
    return cache[sitting.pk]


@register.simple_tag(takes_context=True)
def van_review(context: Mapping[str, Any], van: Mapping[str, Any], sitting: Sitting | None) -> dict[str, Any]:
    """``may_review``: the buttons are shown (a provisional ván, a signed-in person who may review
    the sitting and did not enter it); ``own``: the person looking entered it. Fresh idempotency
    keys for the two forms."""
    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = bool(user is not None and user.is_authenticated)
    own = signed_in and van.get("entered_by") is not None and van.get("entered_by") == user.get_username()
    may = (
        sitting is not None
        and signed_in
        and not own
        and van.get("is_current", True)
        and van.get("status") == VanStatus.PROVISIONAL
        and _may_review(request, sitting)
    )
    return {"may_review": may, "own": own, "confirm_key": str(uuid.uuid4()), "reject_key": str(uuid.uuid4())}
