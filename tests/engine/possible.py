"""Test helper: keep only cước that some hand of the game could hold together.

Strategies draw cước at random; the engine refuses a combination no hand could hold (Bạch Định
with Thập Điều), so generators of *valid* wins drop, in order, each cước that would make the
combination impossible.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine.conflicts import combination_problem
from scoring.engine.rules import RuleSet, load_rules


def possible(game: str, rules: RuleSet | str, slugs: Sequence[str]) -> list[str]:
    """``slugs`` less each one that no hand of ``game`` could hold with those kept before it."""
    the_rules = load_rules(rules)
    kept: list[str] = []
    for slug in slugs:
        if combination_problem(game, the_rules, [*kept, slug]) is None:
            kept.append(slug)
    return kept
