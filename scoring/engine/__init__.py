"""Sổ Tôm's scoring engine: pure Python, no Django.

Cards, games, the cước catalogue (with what each cước needs of the hand), rule sets as data, points
with explanations, the combinations no hand could hold, hand checking and settlement. Everything a
user can get wrong raises :class:`EngineError`: a message code (the Vietnamese template) and its
parameters, translated by whatever the app installs (:func:`set_translator`).
"""

import importlib
from typing import Any

from scoring.engine.bounds import PLAYER_NAME as MAX_PLAYER_NAME
from scoring.engine.bounds import VAN as MAX_VAN
from scoring.engine.cards import CARD_BY_CODE, CARDS, CHAN_CARDS, Card, parse_card
from scoring.engine.conflicts import ConflictTable, check_combination, combination_problem, conflict_table
from scoring.engine.contract import check_request, require_keys, run_batch, score_request
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
    Joined,
    Msg,
    RuleError,
    SettlementError,
    set_translator,
)
from scoring.engine.games import (
    FAMILY_TRAITS,
    GAMES,
    DeckKind,
    FamilyTraits,
    Game,
    GameSlug,
    GaPot,
    ScoringFamily,
    get_game,
)
from scoring.engine.points import Breakdown, BreakdownLine, score
from scoring.engine.rules import (
    PRESETS,
    BaoRegime,
    BareTriple,
    ChanGaNuoi,
    ChanGaNuoiContribution,
    CuocValue,
    GaContribution,
    GaDauHoiQuang,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    MainCuoc,
    MainTie,
    Repeat,
    RuleSet,
    family_of,
    load_rules,
    merge_overrides,
)
from scoring.engine.settlement import (
    GA_TRONG,
    POOL,
    REPLAY_KEYS,
    VAN_KEYS,
    Fault,
    GaEvent,
    Mode,
    SittingState,
    Transfer,
    VanRecord,
    VanSettlement,
    initial_state,
    make_terms,
    parse_van,
    replay,
    rules_with_overrides,
    settle_sitting,
    settle_up,
    settle_van,
)
from scoring.engine.settlement.context import SittingTerms
from scoring.engine.settlement.hoi import open_hoi
from scoring.engine.settlement.ledger import Book
from scoring.engine.settlement.types import van_error
from scoring.engine.western import WESTERN_BY_CODE, WESTERN_CARDS, WesternCard, parse_western_hand
from scoring.engine.words import ENGINE_WORDS, Vocabulary
from scoring.engine.words import PHRASES as REASON_PHRASES

__all__ = [
    "ENGINE_WORDS",
    "REASON_PHRASES",
    "Vocabulary",
    "BaoRegime",
    "BareTriple",
    "Book",
    "Breakdown",
    "BreakdownLine",
    "CARDS",
    "CARD_BY_CODE",
    "CATALOGUE",
    "CHAN_CARDS",
    "Card",
    "CardError",
    "ChanGaNuoi",
    "ChanGaNuoiContribution",
    "ConflictError",
    "ConflictTable",
    "Cuoc",
    "CuocError",
    "CuocValue",
    "DeckKind",
    "FAMILY_TRAITS",
    "FamilyTraits",
    "GaPot",
    "Derivability",
    "EngineError",
    "Fault",
    "GAMES",
    "GA_TRONG",
    "GaContribution",
    "GaDauHoiQuang",
    "GaEvent",
    "GaNgoaiKind",
    "GaTrongRegime",
    "Game",
    "GameError",
    "GameSlug",
    "HandError",
    "InvariantError",
    "KinhTuCoPolicy",
    "LUNG_TRIPLES",
    "check_hand",
    "find_waits",
    "Joined",
    "MAX_PLAYER_NAME",
    "MAX_VAN",
    "WESTERN_BY_CODE",
    "WESTERN_CARDS",
    "WesternCard",
    "check_phom",
    "parse_western_hand",
    "MainCuoc",
    "MainTie",
    "Mode",
    "Msg",
    "N_",
    "Needs",
    "POOL",
    "PRESETS",
    "REPLAY_KEYS",
    "Repeat",
    "RuleError",
    "RuleSet",
    "ScoringFamily",
    "SettlementError",
    "SittingState",
    "SittingTerms",
    "Transfer",
    "VAN_KEYS",
    "VanRecord",
    "VanSettlement",
    "check_combination",
    "check_request",
    "combination_problem",
    "conflict_table",
    "cuoc_for_game",
    "family_of",
    "get_cuoc",
    "get_game",
    "initial_state",
    "khoi_name",
    "load_rules",
    "make_terms",
    "merge_overrides",
    "open_hoi",
    "parse_card",
    "parse_van",
    "replay",
    "require_keys",
    "rules_with_overrides",
    "run_batch",
    "score",
    "score_request",
    "set_translator",
    "settle_sitting",
    "settle_up",
    "settle_van",
    "van_error",
]

#: Public names loaded on first use: the hand checker builds its tables on import (about a second),
#: which pages that never check a hand should not pay.
_LAZY = {
    "LUNG_TRIPLES": "scoring.engine.checker.phu",
    "check_hand": "scoring.engine.checker",
    "check_phom": "scoring.engine.checker.phom",
    "find_waits": "scoring.engine.checker",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
