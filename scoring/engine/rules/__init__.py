"""Rule sets as data: a frozen :class:`RuleSet`, named presets, overrides, validation.

Every number of RULES.md that villages disagree on is a field here; presets reproduce the seeds'
tables and live as JSON files under ``scoring/engine/presets/``.
"""

from __future__ import annotations

from scoring.engine.rules.enums import (
    BaoRegime,
    ChanGaNuoiContribution,
    GaContribution,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
)
from scoring.engine.rules.frozen import FrozenMap
from scoring.engine.rules.model import TU_TRU_TIENG, CuocValue, RuleSet
from scoring.engine.rules.presets import PRESETS, load_rules, merge_overrides, preset_data

__all__ = [
    "PRESETS",
    "TU_TRU_TIENG",
    "BaoRegime",
    "ChanGaNuoiContribution",
    "CuocValue",
    "FrozenMap",
    "GaContribution",
    "GaNgoaiKind",
    "GaTrongRegime",
    "KinhTuCoPolicy",
    "RuleSet",
    "load_rules",
    "merge_overrides",
    "preset_data",
]
