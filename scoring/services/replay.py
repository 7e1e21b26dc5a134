"""Replaying a whole sitting through the app's own services (``manage.py replay``).

The request is the engine replay's (:func:`scoring.engine.settlement.replay`); the sitting is
opened with :func:`sitting_open` and every ván recorded with :func:`van_record`, so the answer
is read back from the ledger. It must equal the engine's pure replay: a difference is a bug
(:class:`InvariantError`), never a user error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from scoring.engine import (
    MAX_VAN,
    N_,
    REPLAY_KEYS,
    EngineError,
    InvariantError,
    replay,
    require_keys,
    rules_with_overrides,
)
from scoring.models import Sitting
from scoring.selectors.ledger import balances, van_transfers
from scoring.services.rules import resolve_rules
from scoring.services.sittings import sitting_open, van_record

__all__ = ["sitting_replay"]

REQUIRED = ("game", "rules", "players", "van")


def sitting_replay(
    *, request: Mapping[str, Any], created_by: AbstractBaseUser | None = None
) -> tuple[Sitting, dict[str, Any]]:
    """Open a sitting and record every ván of ``request``; answer the replay contract from the ledger.

    The caller owns the transaction (``manage.py replay`` rolls it back unless ``--save``).
    The request's ``gom``, ``ga_ngoai`` and ``ga_trong`` are rule overrides, stored in the
    sitting's rule-set snapshot.
    """
    if not isinstance(request, Mapping):
        raise EngineError(N_("Yêu cầu replay phải là một đối tượng JSON."))
    require_keys(request, REPLAY_KEYS, REQUIRED)
    if not isinstance(request["van"], list) or len(request["van"]) > MAX_VAN:  # checked before any write
        raise EngineError(N_("'van' phải là danh sách các ván (tối đa {most} ván)."), most=MAX_VAN)
    rules = rules_with_overrides(request, resolve_rules)
    sitting = sitting_open(
        game=request["game"], rules=rules, mode=request.get("mode", "quang"),
        players=request["players"], created_by=created_by,
    ).obj
    vans = [
        van_record(sitting=sitting, seq=seq, record=record, idempotency_key=None, entered_by=created_by).obj
        for seq, record in enumerate(request["van"], start=1)
    ]
    transfers = van_transfers(sitting)
    result = {
        **balances(sitting).to_dict(),
        "hoi": [h.to_dict() for h in sitting.hoi.order_by("index")],
        "van": [
            {"points": v.points, "streak": v.streak, "transfers": transfers.get(v.pk, [])} for v in vans
        ],
    }
    expected = replay(request, resolve_rules=resolve_rules)
    if result != expected:
        raise InvariantError(f"ledger replay differs from the engine's: {result!r} != {expected!r}")
    return sitting, result
