"""Settlement: who pays whom for each ván, the state of a sitting, its replay and settling up.

A sitting is a pure fold::

    state = initial_state(players, game, rules, mode)
    for van in vans:
        settled = settle_van(state, van, game=game, rules=rules, mode=mode)
        state = settled.state          # settled.transfers: who paid whom, and why

Accounts are the players (by name), the village pool :data:`POOL` and the gà pot
:data:`GA_TRONG`; every ván keeps their sum at zero (an :class:`InvariantError` otherwise).
"""

from __future__ import annotations

from .engine import initial_state, make_terms, settle_sitting, settle_van
from .parse import VAN_KEYS, parse_van
from .replay import REPLAY_KEYS, replay, rules_with_overrides
from .settle_up import settle_up
from .types import (
    GA_TRONG,
    POOL,
    BaoRegime,
    Fault,
    GaEvent,
    HoiSpan,
    Mode,
    SittingState,
    Transfer,
    VanRecord,
    VanSettlement,
)

__all__ = [
    "GA_TRONG",
    "POOL",
    "REPLAY_KEYS",
    "VAN_KEYS",
    "BaoRegime",
    "Fault",
    "GaEvent",
    "HoiSpan",
    "Mode",
    "SittingState",
    "Transfer",
    "VanRecord",
    "VanSettlement",
    "initial_state",
    "make_terms",
    "parse_van",
    "replay",
    "rules_with_overrides",
    "settle_sitting",
    "settle_up",
    "settle_van",
]
