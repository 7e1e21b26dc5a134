"""Rule sets as data: a frozen :class:`RuleSet`, named presets, overrides, validation.

Every number of docs/rules.md that villages disagree on is a field here; presets reproduce the seeds'
tables and live as JSON files under ``scoring/engine/presets/``.
"""

from __future__ import annotations

from scoring.engine.frozen import FrozenMap
from scoring.engine.rules.enums import (
    BaoRegime,
    BareTriple,
    ChanGaNuoi,
    ChanGaNuoiContribution,
    GaContribution,
    GaDauHoiQuang,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    MainCuoc,
    MainTie,
    Repeat,
)
from scoring.engine.rules.model import TU_TRU_TIENG, CuocValue, CustomCuoc, RuleSet, wrong_family
from scoring.engine.rules.presets import PRESETS, family_of, load_rules, merge_overrides, preset_data

__all__ = [
    "PRESETS",
    "TU_TRU_TIENG",
    "BaoRegime",
    "BareTriple",
    "ChanGaNuoi",
    "ChanGaNuoiContribution",
    "CuocValue",
    "CustomCuoc",
    "FrozenMap",
    "GaContribution",
    "GaDauHoiQuang",
    "GaNgoaiKind",
    "GaTrongRegime",
    "KinhTuCoPolicy",
    "MainCuoc",
    "MainTie",
    "Repeat",
    "RuleSet",
    "wrong_family",
    "family_of",
    "load_rules",
    "merge_overrides",
    "preset_data",
]
