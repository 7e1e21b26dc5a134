"""Reads that build pages: rule-set choices, the cước chips of a game under a rule set, and the
chips that can no longer be combined with those chosen (the engine's conflict table)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import gettext

from scoring.engine import (
    PRESETS,
    Cuoc,
    EngineError,
    Game,
    RuleSet,
    ScoringFamily,
    conflict_table,
    cuoc_for_game,
    family_of,
    load_rules,
)
from scoring.models import RuleSetSnapshot, VillageRuleSet, VillageRuleSetVersion

#: The preset a page offers first for each scoring family.
DEFAULT_PRESET = {
    ScoringFamily.TO_TOM: "luat-2005",
    ScoringFamily.TAI_BAN: "tai-ban",
    ScoringFamily.CHAN: "chan",
    ScoringFamily.PHOM: "phom",
}


def applied_rules_name(snapshot: RuleSetSnapshot) -> str:
    """The name of the rule set a canh (or an event) is actually scored under, as people chose it.

    A snapshot stores the values, and its own ``name`` is the preset's: a village rule set built
    on Luật 2005 was shown as "Luật Tổ Tôm 2005" although the village's values applied. The saved village version with exactly these values names it; values no saved set
    has are the preset's name marked as changed.
    """
    return applied_rules_names([snapshot])[snapshot.pk]


def applied_rules_names(snapshots: Iterable[RuleSetSnapshot]) -> dict[int, str]:
    """:func:`applied_rules_name` of each snapshot, by id, in one query."""
    snapshots = list(snapshots)
    versions: dict[int, VillageRuleSetVersion] = {}
    found = (
        VillageRuleSetVersion.objects.filter(snapshot__in=snapshots)
        .select_related("rule_set")
        .order_by("rule_set__name", "-number")
    )
    for version in found:
        versions.setdefault(version.snapshot_id, version)
    names = {}
    for snapshot in snapshots:
        version = versions.get(snapshot.pk)
        base = snapshot.spec.get("name") or snapshot.preset
        if version is not None:
            names[snapshot.pk] = gettext("%(name)s (lệ làng, phiên bản %(n)s, trên %(base)s)") % {
                "name": version.rule_set.name,
                "n": version.number,
                "base": base,
            }
        elif snapshot.preset in PRESETS and load_rules(snapshot.preset).fingerprint != snapshot.fingerprint:
            names[snapshot.pk] = gettext("%(base)s (đã chỉnh)") % {"base": base}
        else:
            names[snapshot.pk] = base
    return names


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


def rules_choices(game: Game) -> list[RulesChoice]:
    """Presets and saved village rule sets that fit the game's scoring family (one query of the
    sets' slugs, names, presets and overrides: their family is read from those, never from each
    set's whole rules)."""
    villages = VillageRuleSet.objects.order_by("name").values_list("slug", "name", "preset", "overrides")
    return [
        *_preset_choices(game.family),
        *(
            RulesChoice(slug, name, saved=True)
            for slug, name, preset, overrides in villages
            if family_of({**overrides, "preset": preset}) is game.family
        ),
    ]


@cache
def _preset_choices(family: ScoringFamily) -> tuple[RulesChoice, ...]:
    """The presets of a scoring family (presets are the engine's data: fixed for the process)."""
    return tuple(
        RulesChoice(slug, load_rules(slug).name, saved=False)
        for slug in PRESETS
        if load_rules(slug).family == family
    )


def chips(game: Game, rules: RuleSet) -> list[Chip]:
    """The cước a scorekeeper can tap for this game under these rules, cheapest first (a
    village's own cước too).

    Plain wins and streak cước are left out: a plain win is no chip at all and streaks come from
    the streak counter.
    """
    result = []
    own = [rules.cuoc_info(slug) for slug in rules.custom_cuoc if slug in rules.cuoc]
    for cuoc in [*cuoc_for_game(game), *own]:
        if cuoc.streak or cuoc.slug in {"suong", "xuong"} and not game.traits.plain_win_is_cuoc:
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


@dataclass(frozen=True)
class ChipRow:
    """One chip as a page shows it: chosen or not, and why it can no longer be chosen (or "")."""

    slug: str
    name: str
    main: int
    checked: bool
    why: str


def chip_conflicts(game: Game, rules: RuleSet, offered: Sequence[Chip]) -> dict[str, Any]:
    """The engine's conflict table among the offered chips, reasons in the page's language:
    ``{"conflicts": [{"cuoc": [slug, ...], "why": "..."}]}`` (what ``static/scoring/chips.js`` and
    the offline preview look up; no derivation happens in the browser)."""
    slugs = {c.slug for c in offered}
    table = conflict_table(game, rules)
    return {"conflicts": [c.to_dict(gettext) for c in table.conflicts if set(c.cuoc) <= slugs]}


def chip_rows(game: Game, rules: RuleSet, offered: Sequence[Chip], chosen: Iterable[str]) -> list[ChipRow]:
    """The offered chips with the chosen ones checked and each blocked one's reason."""
    picked = [c for c in chosen if c in {chip.slug for chip in offered}]
    blocked = conflict_table(game, rules).blocked(picked)
    rows = []
    for chip in offered:
        checked = chip.slug in picked
        why = blocked.get(chip.slug)
        rows.append(
            ChipRow(
                chip.slug,
                chip.name,
                chip.main,
                checked,
                "" if checked or why is None else why.render(gettext),
            )
        )
    return rows
