"""Sổ Tôm's scoring engine: pure Python, no Django.

Cards, games, the cước catalogue, rule sets as data, points with explanations, hand checking and
settlement. Everything a user can get wrong raises :class:`EngineError` (Vietnamese message).
"""

from scoring.engine.cuoc import CATALOGUE, Cuoc, Derivability, cuoc_for_game, get_cuoc, khoi_name
from scoring.engine.errors import (
    CardError,
    CuocError,
    EngineError,
    GameError,
    HandError,
    InvariantError,
    RuleError,
    SettlementError,
)
from scoring.engine.games import GAMES, DeckKind, Game, GameSlug, ScoringFamily, get_game
from scoring.engine.points import Breakdown, BreakdownLine, score
from scoring.engine.rules import (
    PRESETS,
    BaoRegime,
    CuocValue,
    GaContribution,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    RuleSet,
    load_rules,
)

__all__ = [
    "CATALOGUE",
    "GAMES",
    "PRESETS",
    "BaoRegime",
    "Breakdown",
    "BreakdownLine",
    "CardError",
    "Cuoc",
    "CuocError",
    "CuocValue",
    "DeckKind",
    "Derivability",
    "EngineError",
    "GaContribution",
    "GaNgoaiKind",
    "GaTrongRegime",
    "Game",
    "GameError",
    "GameSlug",
    "HandError",
    "InvariantError",
    "KinhTuCoPolicy",
    "RuleError",
    "RuleSet",
    "ScoringFamily",
    "SettlementError",
    "cuoc_for_game",
    "get_cuoc",
    "get_game",
    "khoi_name",
    "load_rules",
    "score",
]
