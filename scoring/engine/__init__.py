"""Sổ Tôm's scoring engine: pure Python, no Django.

Cards, games, the cước catalogue (with what each cước needs of the hand), rule sets as data, points
with explanations, the combinations no hand could hold, hand checking and settlement. Everything a
user can get wrong raises :class:`EngineError`: a message code (the Vietnamese template) and its
parameters, translated by whatever the app installs (:func:`set_translator`).
"""

from scoring.engine.conflicts import ConflictTable, check_combination, combination_problem, conflict_table
from scoring.engine.cuoc import CATALOGUE, Cuoc, Derivability, cuoc_for_game, get_cuoc, khoi_name
from scoring.engine.cuoc.needs import Needs
from scoring.engine.errors import (
    N_,
    CardError,
    ConflictError,
    CuocError,
    EngineError,
    GameError,
    HandError,
    InvariantError,
    Msg,
    RuleError,
    SettlementError,
    set_translator,
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
from scoring.engine.settlement import (
    GA_TRONG,
    POOL,
    Fault,
    GaEvent,
    Mode,
    SittingState,
    Transfer,
    VanRecord,
    VanSettlement,
    initial_state,
    replay,
    settle_sitting,
    settle_up,
    settle_van,
)

__all__ = [
    "N_",
    "ConflictError",
    "ConflictTable",
    "Msg",
    "Needs",
    "check_combination",
    "combination_problem",
    "conflict_table",
    "set_translator",
    "GA_TRONG",
    "POOL",
    "Fault",
    "GaEvent",
    "Mode",
    "SittingState",
    "Transfer",
    "VanRecord",
    "VanSettlement",
    "initial_state",
    "replay",
    "settle_sitting",
    "settle_up",
    "settle_van",
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
