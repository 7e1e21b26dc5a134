"""Points of a win: main value of the highest cước + D × extra dịch of the others (docs/rules.md §6).

:func:`score` returns an immutable :class:`Breakdown` whose lines explain every point in
Vietnamese, so the UI and the API can show it as is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoring.engine import bounds
from scoring.engine.conflicts import check_combination
from scoring.engine.cuoc import khoi_name
from scoring.engine.errors import N_, CuocError, shown
from scoring.engine.games import Game, GameSlug, ScoringFamily, get_game
from scoring.engine.rules import MainCuoc, MainTie, Repeat, RuleSet, load_rules, wrong_family
from scoring.engine.words import BOI_NAMES, BREAKDOWN, PHRASES

__all__ = ["Breakdown", "BreakdownLine", "score"]


@dataclass(frozen=True, slots=True)
class BreakdownLine:
    """One line of a breakdown: a cước and the points it brings."""

    #: Slug of the cước (``khoi`` for any N-Khôi, ``ga`` for Chắn gà points).
    cuoc: str
    #: Vietnamese name ("Thập Điều", "Bát Khôi", "Gà").
    name: str
    #: Points this line brings.
    points: int
    #: Extra dịch counted (None on the main line and the gà line).
    dich: int | None
    #: Vietnamese explanation ("bội tam: 3 × 4 + 3 dịch × 2").
    why: str

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cuoc": self.cuoc, "name": self.name}
        if self.dich is not None:
            out["dich"] = self.dich
        out.update(points=self.points, why=self.why)
        return out


@dataclass(frozen=True, slots=True)
class Breakdown:
    """The points of one win and why: main line first, then the others by points."""

    #: Total points of the win (the sum of the lines).
    points: int
    #: Slug of the cước counted at its main value.
    main: str
    #: Every line, main first, then by points (desc) and slug.
    lines: tuple[BreakdownLine, ...]
    #: Fingerprint of the rule set used.
    rules_fingerprint: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "main": self.main,
            "lines": [line.to_dict() for line in self.lines],
            "rules_fingerprint": self.rules_fingerprint,
        }


@dataclass(frozen=True, slots=True)
class _Item:
    slug: str
    name: str
    main: int
    dich: int
    main_why: str


def score(
    game: str | GameSlug | Game,
    rules: RuleSet | str | Mapping[str, Any],
    cuoc: Sequence[str],
    streak: int = 1,
) -> Breakdown:
    """Score a win of ``game`` under ``rules`` with the declared ``cuoc`` (slugs, any order).

    ``streak`` is the number of consecutive valid wins ending with this one (2 = Thông,
    N ≥ 3 = N-Khôi; Chắn: Thông for any streak ≥ 2). An empty ``cuoc`` is a plain win.
    Raises CuocError / RuleError / GameError with a Vietnamese message naming the faulty item, and
    ConflictError when no hand of the game could hold the cước together (Bạch Định + Thập Điều).
    """
    if (
        isinstance(rules, RuleSet)
        and isinstance(streak, int)
        and not isinstance(streak, bool)
        and all(isinstance(c, str) for c in cuoc)
    ):
        # A pure function of hashable inputs: replaying a sitting scores the same wins again and
        # again, so answers are memoised (errors are raised, never cached).
        slug = game.slug if isinstance(game, Game) else str(game)
        return _score_cached(slug, rules, tuple(cuoc), streak)
    return _score(game, rules, cuoc, streak)


@lru_cache(maxsize=4096)
def _score_cached(game: str, rules: RuleSet, cuoc: tuple[str, ...], streak: int) -> Breakdown:
    return _score(game, rules, cuoc, streak)


def _score(
    game: str | GameSlug | Game,
    rules: RuleSet | str | Mapping[str, Any],
    cuoc: Sequence[str],
    streak: int,
) -> Breakdown:
    the_game = get_game(game)
    rule_set = load_rules(rules)
    _check_family(the_game, rule_set)
    _check_streak(streak)
    slugs = _declared(the_game, rule_set, cuoc)
    slugs = _drop_streak_duplicates(rule_set, slugs, streak)
    slugs, subsumed = _apply_subsumption(rule_set, slugs)
    check_combination(the_game, rule_set, slugs)
    if rule_set.tom_leo_repeat is Repeat.ONCE:
        slugs = [s for i, s in enumerate(slugs) if s not in ("tom", "leo") or s not in slugs[:i]]
    items = [_item(rule_set, s) for s in slugs]
    streak_item = _streak_item(rule_set, streak)
    if streak_item is not None:
        items.append(streak_item)
    if not items:
        items = [_item(rule_set, rule_set.plain_cuoc)]
    elif len(items) > 1:
        items = [it for it in items if it.slug != rule_set.plain_cuoc] or items[:1]
    return _breakdown(rule_set, items, subsumed, slugs)


def _check_family(game: Game, rules: RuleSet) -> None:
    if game.family is ScoringFamily.PHOM:
        raise CuocError(
            N_(
                "Phỏm không tính điểm theo cước: mỗi ván được tính theo thứ hạng (nhất, nhì, ba, bét, ù, đền) "
                "khi quyết toán."
            )
        )
    if rules.family is not game.family:
        raise wrong_family(rules, game)


def _check_streak(streak: object) -> None:
    if isinstance(streak, bool) or not isinstance(streak, int) or not 1 <= streak <= bounds.STREAK:
        raise CuocError(
            N_("Chuỗi thắng (streak) phải là số nguyên từ 1 đến {most}, nhận được {value}."),
            most=bounds.STREAK,
            value=shown(streak),
        )


def _declared(game: Game, rules: RuleSet, cuoc: Sequence[str]) -> list[str]:
    if isinstance(cuoc, str):
        raise CuocError(
            N_("Danh sách cước phải là một danh sách, không phải chuỗi {value}."), value=shown(cuoc)
        )
    if len(cuoc) > bounds.CUOC_LIST:
        raise CuocError(
            N_("Một ván ù có nhiều nhất {most} cước (nhận được {n})."), most=bounds.CUOC_LIST, n=len(cuoc)
        )
    slugs: list[str] = []
    for raw in cuoc:
        if not isinstance(raw, str):
            raise CuocError(N_("Cước phải là tên (slug) dạng chuỗi, nhận được {value}."), value=shown(raw))
        entry = rules.cuoc_info(raw)
        if not entry.in_game(game.slug):
            raise CuocError(
                N_("Cước '{slug}' ({name}) không có trong {game}."),
                slug=entry.slug,
                name=entry.name,
                game=game.name_vi,
            )
        slugs.append(entry.slug)
    return slugs


def _drop_streak_duplicates(rules: RuleSet, slugs: list[str], streak: int) -> list[str]:
    """The streak adds its own line: an explicit ``thong``/``khoi`` then is not counted again."""
    kind = rules.streak_cuoc(streak)
    if "khoi" in slugs and kind != "khoi":
        raise CuocError(
            N_("Cước 'khoi' (Khôi) cần từ 3 ván thắng liên tiếp trở lên; chuỗi thắng đang là {streak}."),
            streak=streak,
        )
    if kind is None:  # a declared Thông counts once: there is only one streak
        return [s for i, s in enumerate(slugs) if s != "thong" or "thong" not in slugs[:i]]
    return [s for s in slugs if s not in ("thong", "khoi")]


def _apply_subsumption(rules: RuleSet, slugs: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Each subsuming cước (Chi Nẩy) cancels one of each cước it contains (its Lèo)."""
    remaining = list(slugs)
    subsumed: list[tuple[str, str]] = []
    for slug in sorted(slugs):
        for inner in rules.subsumes.get(slug, ()):
            if inner in remaining:
                remaining.remove(inner)
                subsumed.append((inner, slug))
    return remaining, subsumed


def _main_why(rules: RuleSet, slug: str, main: int) -> str:
    value = rules.cuoc.get(slug)
    if value is None or value.main is not None or value.boi is None:
        return BREAKDOWN["main"].format(main=main)
    boi = value.boi
    if rules.traits.stake_per_hoi:
        return BREAKDOWN["tai_ban"].format(boi=boi, stake=rules.stake)
    if boi == 1:
        return BREAKDOWN["suong"].format(main=main)
    name = BOI_NAMES.get(boi, str(boi))
    if main != boi * rules.suong:
        return BREAKDOWN["boi_dich"].format(boi_name=name, boi=boi, suong=rules.suong, dich=rules.dich)
    return BREAKDOWN["boi"].format(boi_name=name, boi=boi, suong=rules.suong)


def _item(rules: RuleSet, slug: str) -> _Item:
    main, dich = rules.value_of(slug)
    why = _main_why(rules, slug, main) if slug != "thong" else BREAKDOWN["thong"].format(main=main)
    return _Item(slug, rules.cuoc_name(slug), main, dich, why)


def _streak_item(rules: RuleSet, streak: int) -> _Item | None:
    kind = rules.streak_cuoc(streak)
    if kind is None:
        return None
    main, dich = rules.khoi_value(streak)
    if kind == "thong":
        return _Item("thong", "Thông", main, dich, BREAKDOWN["thong_streak"].format(streak=streak, main=main))
    step = streak - rules.khoi_main_offset
    why = BREAKDOWN["khoi"].format(
        khoi=khoi_name(streak), streak=streak, suong=rules.suong, step=step, dich=rules.dich
    )
    return _Item("khoi", khoi_name(streak), main, dich, why)


def _breakdown(
    rules: RuleSet, items: list[_Item], subsumed: list[tuple[str, str]], slugs: list[str]
) -> Breakdown:
    total_dich = sum(it.dich for it in items)

    def total_with(main: _Item) -> int:
        return main.main + rules.dich * (total_dich - main.dich)

    def rank(it: _Item) -> tuple[int, int, str]:
        if rules.main_cuoc is MainCuoc.MOST_POINTS:
            return -total_with(it), -it.main, it.slug
        tie = -it.dich if rules.main_tie is MainTie.MOST_DICH else -total_with(it)
        return -it.main, tie, it.slug

    main = min(items, key=rank)
    others = list(items)
    others.remove(main)
    lines = [BreakdownLine(main.slug, main.name, main.main, None, main.main_why)]
    lines += [
        BreakdownLine(
            it.slug,
            it.name,
            rules.dich * it.dich,
            it.dich,
            BREAKDOWN["dich"].format(count=it.dich, dich=rules.dich),
        )
        for it in others
    ]
    lines += [
        BreakdownLine(
            inner,
            rules.cuoc_name(inner),
            0,
            0,
            BREAKDOWN["subsumed"].format(names=rules.cuoc_name(outer)),
        )
        for inner, outer in subsumed
    ]
    ga = _ga_line(rules, slugs)
    if ga is not None:
        lines.append(ga)
    lines[1:] = sorted(lines[1:], key=lambda line: (-line.points, line.cuoc))
    return Breakdown(sum(line.points for line in lines), main.slug, tuple(lines), rules.fingerprint)


def _ga_line(rules: RuleSet, slugs: list[str]) -> BreakdownLine | None:
    if not rules.traits.ga_as_cuoc or not rules.chan_ga_cuoc:
        return None
    present = Counter(slugs)
    count = sum(1 for entry in set(rules.chan_ga_cuoc) if all(present[p] for p in entry.split("+")))
    if count == 0:
        return None
    points = count * rules.chan_ga_points
    why = BREAKDOWN["ga"].format(count=count, each=rules.chan_ga_points)
    return BreakdownLine("ga", PHRASES["ga_line"], points, None, why)
