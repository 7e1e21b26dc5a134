"""Reads that build pages: rule-set choices and the cước chips of a game under a rule set."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine.cuoc import Cuoc, cuoc_for_game
from scoring.engine.errors import EngineError
from scoring.engine.games import GAMES, Game, ScoringFamily
from scoring.engine.rules import PRESETS, RuleSet, load_rules
from scoring.models import VillageRuleSet

#: The preset a page offers first for each scoring family.
DEFAULT_PRESET = {
    ScoringFamily.TO_TOM: "luat-2005",
    ScoringFamily.TAI_BAN: "tai-ban",
    ScoringFamily.CHAN: "chan",
    ScoringFamily.PHOM: "phom",
}


@dataclass(frozen=True)
class RulesChoice:
    slug: str
    name: str
    saved: bool


@dataclass(frozen=True)
class Chip:
    slug: str
    name: str
    main: int
    dich: int


def scored_games() -> list[Game]:
    """Games whose wins are valued by cước (Phỏm is settled by rank, not here)."""
    return [g for g in GAMES.values() if g.family != ScoringFamily.PHOM]


def rules_choices(game: Game) -> list[RulesChoice]:
    """Presets and saved village rule sets that fit the game's scoring family."""
    choices = []
    for slug in PRESETS:
        rules = load_rules(slug)
        if rules.family == game.family:
            choices.append(RulesChoice(slug, rules.name, saved=False))
    for village in VillageRuleSet.objects.select_related("snapshot").order_by("name"):
        if village.rules().family == game.family:
            choices.append(RulesChoice(village.slug, village.name, saved=True))
    return choices


def chips(game: Game, rules: RuleSet) -> list[Chip]:
    """The cước a scorekeeper can tap for this game under these rules, cheapest first.

    Plain wins and streak cước are left out: a plain win is no chip at all and streaks come from
    the streak counter.
    """
    result = []
    for cuoc in cuoc_for_game(game):
        if cuoc.streak or cuoc.slug in {"suong", "xuong"} and game.family != ScoringFamily.TAI_BAN:
            continue
        value = _value(rules, cuoc)
        if value is not None:
            result.append(Chip(cuoc.slug, cuoc.name, *value))
    return sorted(result, key=lambda c: (c.main, c.dich, c.name))


def _value(rules: RuleSet, cuoc: Cuoc) -> tuple[int, int] | None:
    try:
        return rules.value_of(cuoc.slug)
    except EngineError:
        return None
