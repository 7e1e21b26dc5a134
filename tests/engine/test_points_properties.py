"""Properties of scoring and of rule sets, checked with Hypothesis over the shipped presets."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine.cuoc import CATALOGUE, cuoc_for_game
from scoring.engine.points import score
from scoring.engine.rules import (
    PRESETS,
    BaoRegime,
    GaContribution,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    RuleSet,
    load_rules,
)
from tests.engine.possible import possible

TO_TOM_PRESETS = ("luat-2005", "suong4-dich2", "suong2-dich1", "hoi-50")
TO_TOM_GAMES = ("to-tom-5", "to-tom-4", "to-tom-diem")


def _scorable(preset: str, game: str) -> list[str]:
    """Cước a scorekeeper may list for ``game`` under ``preset`` (Khôi comes from the streak)."""
    valued = set(load_rules(preset).cuoc) | {"thong"}
    return sorted(c.slug for c in cuoc_for_game(game) if c.slug in valued)


@st.composite
def wins(draw: st.DrawFn) -> tuple[str, str, list[str], list[str]]:
    """(preset, game, cước list a hand could hold, the cước that may be listed)."""
    preset = draw(st.sampled_from(TO_TOM_PRESETS))
    game = draw(st.sampled_from(TO_TOM_GAMES))
    allowed = _scorable(preset, game)
    return preset, game, possible(game, preset, draw(st.lists(st.sampled_from(allowed), max_size=6))), allowed


@settings(max_examples=300, deadline=None)
@given(win=wins(), data=st.data(), streak=st.integers(1, 12))
def test_adding_a_cuoc_never_lowers_points(win, data, streak):
    preset, game, cuoc, allowed = win
    extra = data.draw(st.sampled_from(allowed))
    assume(possible(game, preset, [*cuoc, extra]) == [*cuoc, extra])
    before = score(game, preset, cuoc, streak).points
    assert score(game, preset, [*cuoc, extra], streak).points >= before


@settings(max_examples=300, deadline=None)
@given(win=wins(), streak=st.integers(1, 12), more=st.integers(1, 6))
def test_a_longer_streak_never_lowers_points(win, streak, more):
    preset, game, cuoc, _ = win
    assert score(game, preset, cuoc, streak + more).points >= score(game, preset, cuoc, streak).points


@settings(max_examples=300, deadline=None)
@given(win=wins(), streak=st.integers(1, 12), data=st.data())
def test_order_of_cuoc_never_changes_the_result(win, streak, data):
    preset, game, cuoc, _ = win
    shuffled = data.draw(st.permutations(cuoc))
    assert score(game, preset, shuffled, streak) == score(game, preset, cuoc, streak)


@settings(max_examples=200, deadline=None)
@given(win=wins(), streak=st.integers(1, 12))
def test_lines_add_up_and_main_comes_first(win, streak):
    preset, game, cuoc, _ = win
    result = score(game, preset, cuoc, streak)
    assert sum(line.points for line in result.lines) == result.points
    assert result.lines[0].cuoc == result.main
    assert all(line.dich is not None for line in result.lines[1:])


# -- random valid overrides -----------------------------------------------------------------------

_small = st.integers(0, 50)
_tieng = st.lists(st.sampled_from(sorted(CATALOGUE)), max_size=4, unique=True)


@st.composite
def cuoc_overrides(draw: st.DrawFn, rules: RuleSet) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for slug in draw(st.lists(st.sampled_from(sorted(rules.cuoc) or ["-"]), max_size=3, unique=True)):
        if slug == "-":
            continue
        out[slug] = draw(
            st.one_of(
                st.fixed_dictionaries({"main": _small}),
                st.fixed_dictionaries({"dich": _small}),
                st.fixed_dictionaries({"boi": st.integers(1, 12)}),
                st.fixed_dictionaries({"main": _small, "dich": _small}),
            )
        )
    return out


@st.composite
def rule_specs(draw: st.DrawFn) -> dict[str, Any]:
    preset = draw(st.sampled_from(PRESETS))
    base = load_rules(preset)
    options: dict[str, st.SearchStrategy[Any]] = {
        "suong": _small,
        "dich": st.integers(0, 10),
        "tu_tru_cong_dich": st.booleans(),
        "khoi_main_offset": st.integers(0, 3),
        "khoi_dich_offset": st.integers(0, 3),
        "kinh_tu_co_policy": st.sampled_from([k.value for k in KinhTuCoPolicy]),
        "gom": st.none() | st.integers(1, 100),
        "gom_topup_below": st.none() | st.integers(1, 100),
        "gom_topup_amount": _small,
        "ga_ngoai": st.sampled_from([k.value for k in GaNgoaiKind]),
        "ga_ngoai_tieng": _tieng,
        "ga_trong": st.sampled_from([k.value for k in GaTrongRegime]),
        "ga_trong_amounts": st.dictionaries(
            st.sampled_from([c.value for c in GaContribution]), _small, max_size=3
        ),
        "ga_trong_tieng": _tieng,
        "den_lang_amount": st.none() | _small,
        "bao_regime": st.sampled_from([k.value for k in BaoRegime]),
        "lanh_lang_breaks_streak": st.booleans(),
        "chiu_pays": st.booleans(),
        "chan_ga_points": _small,
        "stake": st.integers(1, 1000),
        "phom_rank_stakes": st.lists(_small, max_size=4),
        "phom_u_stake": _small,
        "cuoc": cuoc_overrides(base),
    }
    chosen = draw(st.lists(st.sampled_from(sorted(options)), max_size=6, unique=True))
    return {"preset": preset, **{key: draw(options[key]) for key in chosen}}


@settings(max_examples=300, deadline=None)
@given(spec=rule_specs())
def test_every_rule_set_round_trips_through_json(spec):
    rules = load_rules(spec)
    again = RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert again == rules
    assert hash(again) == hash(rules)
    assert again.fingerprint == rules.fingerprint
    assert load_rules(json.loads(json.dumps(spec))) == rules
