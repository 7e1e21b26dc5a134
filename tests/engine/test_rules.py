"""Rule sets as data: presets, the docs/rules.md §6 tables, overrides, validation, JSON round-trip."""

from __future__ import annotations

import json

import pytest

from scoring.engine.errors import CuocError, RuleError
from scoring.engine.games import ScoringFamily
from scoring.engine.rules import (
    PRESETS,
    CuocValue,
    GaContribution,
    GaTrongRegime,
    KinhTuCoPolicy,
    RuleSet,
    family_of,
    load_rules,
)

TO_TOM_PRESETS = ("luat-2005", "suong4-dich2", "suong2-dich1", "hoi-50")

# docs/rules.md §6, every cell "main / extra dịch" of the four Tổ Tôm presets (None = "—").
TABLE = {
    "suong": ((4, 0), (4, 0), (2, 0), (4, 0)),
    "tom": ((8, 1), (8, 1), (4, 1), (6, 1)),
    "bach_thu": ((8, 1), (8, 1), (4, 1), (8, 2)),
    "thien_u": ((8, 1), (8, 1), (4, 1), (8, 1)),
    "leo": ((10, 2), (10, 2), (5, 2), (8, 2)),
    "xuyen": (None, None, None, (6, 1)),
    "xuyen_nam_gian": ((10, 2), (10, 2), (5, 2), (8, 2)),
    "xuyen_bi_tu": ((10, 2), (10, 2), (5, 2), (8, 2)),
    "vong": ((10, 2), (10, 2), (5, 2), (8, 2)),
    "thap_dieu": ((18, 3), (12, 3), (6, 3), (12, 3)),
    "kinh_cu": ((18, 3), (12, 3), (6, 3), (10, 3)),
    "bach_dinh": ((24, 4), (16, 4), (8, 4), (16, 4)),
    "chi_nay": ((36, 6), (24, 6), (12, 6), (24, 6)),
    "kinh_tu_co": ((72, 12), (48, 12), (24, 12), (48, 12)),
    "thap_nhi_dieu": ((18, 3), (12, 3), (6, 3), None),
    "kinh_2_cu": ((18, 3), (12, 3), (6, 3), None),
}

CELLS = [
    (preset, slug, cell)
    for slug, cells in TABLE.items()
    for preset, cell in zip(TO_TOM_PRESETS, cells, strict=True)
]


@pytest.mark.parametrize("slug", PRESETS)
def test_every_preset_loads_with_a_vietnamese_name(slug):
    rules = load_rules(slug)
    assert rules.preset == slug
    assert rules.name and rules.description
    assert hash(rules) == hash(load_rules(slug))


@pytest.mark.parametrize(("preset", "slug", "cell"), CELLS)
def test_preset_values_match_rules_table(preset, slug, cell):
    rules = load_rules(preset)
    if cell is None:
        with pytest.raises(CuocError, match=slug):
            rules.value_of(slug)
    else:
        assert rules.value_of(slug) == cell


# docs/rules.md §6: Thông (N = 2) and N-Khôi for each preset.
LADDERS = {
    "luat-2005": lambda n: (6 + 2 * (n - 2), n - 2),
    "suong4-dich2": lambda n: (6 + 2 * (n - 2), n - 2),
    "suong2-dich1": lambda n: (3 + (n - 2), n - 2),
    "hoi-50": lambda n: (4 + 2 * (n - 1), n - 1),
}
THONG = {"luat-2005": (6, 1), "suong4-dich2": (6, 1), "suong2-dich1": (3, 1), "hoi-50": (6, 1)}


@pytest.mark.parametrize("preset", TO_TOM_PRESETS)
@pytest.mark.parametrize("n", range(2, 13))
def test_thong_and_khoi_ladder(preset, n):
    rules = load_rules(preset)
    expected = THONG[preset] if n == 2 else LADDERS[preset](n)
    assert rules.khoi_value(n) == expected
    assert rules.streak_cuoc(n) == ("thong" if n == 2 else "khoi")


def test_tam_khoi_is_worth_a_tom_in_luat_2005():
    rules = load_rules("luat-2005")
    assert rules.khoi_value(3) == rules.value_of("tom")


@pytest.mark.parametrize("n", [2, 3, 7])
def test_chan_has_no_khoi_ladder(n):
    rules = load_rules("chan")
    assert rules.streak_cuoc(n) == "thong"
    assert rules.khoi_value(n) == (3, 1)


@pytest.mark.parametrize("preset", ["tai-ban", "phom"])
def test_games_without_streak_values(preset):
    rules = load_rules(preset)
    assert rules.streak_cuoc(2) is None
    with pytest.raises(CuocError):
        rules.khoi_value(2)


def test_a_single_win_is_no_streak():
    assert load_rules("luat-2005").streak_cuoc(1) is None


@pytest.mark.parametrize("slug", PRESETS)
def test_json_round_trip_keeps_value_and_fingerprint(slug):
    rules = load_rules(slug)
    again = RuleSet.from_dict(json.loads(json.dumps(rules.to_dict())))
    assert again == rules
    assert again.fingerprint == rules.fingerprint
    assert len(rules.fingerprint) == 16
    int(rules.fingerprint, 16)


def test_presets_have_distinct_fingerprints():
    assert len({load_rules(p).fingerprint for p in PRESETS}) == len(PRESETS)


def test_to_dict_is_plain_json():
    data = load_rules("luat-2005").to_dict()
    assert data["family"] == "to_tom" and type(data["family"]) is str
    assert data["cuoc"]["thap_dieu"] == {"main": None, "dich": 3, "boi": 3}
    assert data["subsumes"] == {"chi_nay": ["leo"]}
    assert data["thong"] == {"main": None, "dich": 1, "boi": None}


# -- overrides -----------------------------------------------------------------------------------


def test_override_one_cuoc_value_merges_into_the_table():
    rules = load_rules({"preset": "luat-2005", "cuoc": {"thap_dieu": {"main": 16}}})
    assert rules.value_of("thap_dieu") == (16, 3)
    assert rules.value_of("kinh_cu") == (18, 3)
    assert rules.preset == "luat-2005"


def test_override_changes_the_fingerprint_but_not_the_preset():
    base = load_rules("luat-2005")
    changed = load_rules({"preset": "luat-2005", "cuoc": {"thap_dieu": {"main": 16}}})
    assert changed.fingerprint != base.fingerprint
    assert load_rules("luat-2005") == base


def test_same_value_as_the_preset_keeps_the_fingerprint():
    assert load_rules({"preset": "luat-2005", "suong": 4}).fingerprint == load_rules("luat-2005").fingerprint


@pytest.mark.parametrize("slug", PRESETS)
def test_family_of_a_spec_is_its_rules_family(slug):
    """family_of reads a saved set's family from its preset and overrides (the calculator's list
    of rule sets): it is the family of the rules load_rules builds, an overriding family included
    (Phỏm's cước are Tài Bàn's and Tổ Tôm's too, so a set built on it may be either)."""
    specs = [{"preset": slug}, {"preset": slug, "stake": 7}]
    specs += [{"preset": slug, "family": family.value} for family in ScoringFamily]
    built = 0
    for spec in specs:
        try:
            rules = load_rules(spec)
        except RuleError:
            continue
        built += 1
        assert family_of(spec) is rules.family
    assert built >= 2
    if slug == "phom":
        assert family_of({"preset": "phom", "family": "tai_ban"}) is ScoringFamily.TAI_BAN


@pytest.mark.parametrize(
    ("overrides", "slug", "expected"),
    [
        ({"suong": 3}, "suong", (3, 0)),
        ({"suong": 3}, "thap_dieu", (3 * 3 + 3 * 2, 3)),
        ({"dich": 1}, "chi_nay", (6 * 4 + 6 * 1, 6)),
        ({"tu_tru_cong_dich": False}, "bach_dinh", (16, 4)),
        ({"cuoc": {"kinh_cu": {"boi": 4}}}, "kinh_cu", (4 * 4 + 4 * 2, 3)),
        ({"cuoc": {"tom": {"dich": 2}}}, "tom", (8, 2)),
        ({"cuoc": {"xuyen": {"main": 6, "dich": 1}}}, "xuyen", (6, 1)),
    ],
)
def test_overrides_follow_s_d_and_boi(overrides, slug, expected):
    assert load_rules({"preset": "luat-2005", **overrides}).value_of(slug) == expected


def test_override_removes_a_cuoc_with_null():
    rules = load_rules({"preset": "hoi-50", "cuoc": {"xuyen": None}})
    with pytest.raises(CuocError, match="xuyen"):
        rules.value_of("xuyen")


def test_tai_ban_stake_override():
    rules = load_rules({"preset": "tai-ban", "stake": 20})
    assert [rules.value_of(s)[0] for s in ("suong", "tai_ban", "suu_ban")] == [20, 40, 60]
    assert rules.den_lang_value() == 20


def test_override_round_trips_through_json():
    rules = load_rules(
        {
            "preset": "suong4-dich2",
            "gom_topup_below": 30,
            "ga_trong": "nha",
            "ga_trong_amounts": {"dau_hoi": 3},
            "cuoc": {"thap_dieu": {"main": 16}},
        }
    )
    assert rules.ga_trong_amounts["dau_hoi"] == 3 and rules.ga_trong_amounts["danh_u"] == 1
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ({"preset": "luat-2005", "suong": -1}, "'suong'"),
        ({"preset": "luat-2005", "suong": "4"}, "'suong'"),
        ({"preset": "luat-2005", "suong": True}, "'suong'"),
        ({"preset": "luat-2005", "dich": 1.5}, "'dich'"),
        ({"preset": "luat-2005", "tu_tru_cong_dich": "yes"}, "'tu_tru_cong_dich'"),
        ({"preset": "luat-2005", "ga_trong": "rừng"}, "'ga_trong'"),
        ({"preset": "luat-2005", "kinh_tu_co_policy": "all"}, "'kinh_tu_co_policy'"),
        ({"preset": "luat-2005", "bogus": 1}, "'bogus'"),
        ({"preset": "luat-2005", "suogn": 3}, "'suong'"),
        ({"preset": "luat-2005", "cuoc": {"thap_dieu": {"main": -16}}}, "'cuoc.thap_dieu.main'"),
        ({"preset": "luat-2005", "cuoc": {"thap_dieu": {"value": 16}}}, "'cuoc.thap_dieu.value'"),
        ({"preset": "luat-2005", "cuoc": {"thap_dieu": 16}}, "'cuoc.thap_dieu'"),
        ({"preset": "luat-2005", "cuoc": {"thap_dieux": {"main": 16}}}, "thap_dieu"),
        ({"preset": "luat-2005", "cuoc": {"xuong": {"main": 2, "dich": 0}}}, "'cuoc.xuong'"),
        ({"preset": "luat-2005", "cuoc": {"xuyen": {"main": 6}}}, "'cuoc.xuyen'"),
        ({"preset": "luat-2005", "cuoc": []}, "'cuoc'"),
        ({"preset": "luat-2005", "ga_ngoai_tieng": ["thap_dieu", "nope"]}, "'ga_ngoai_tieng'"),
        ({"preset": "luat-2005", "ga_trong_tieng": "thap_dieu"}, "'ga_trong_tieng'"),
        ({"preset": "luat-2005", "ga_trong_amounts": {"dau_tuan": 1}}, "'ga_trong_amounts.dau_tuan'"),
        ({"preset": "luat-2005", "subsumes": {"chi_nay": ["lèo"]}}, "'subsumes.chi_nay'"),
        ({"preset": "luat-2005", "gom": 0}, "'gom'"),
        ({"preset": "luat-2005", "khoi_dich_offset": 5}, "'khoi_dich_offset'"),
        ({"preset": "tai-ban", "stake": 0}, "'stake'"),
        ({"preset": "phom", "phom_rank_stakes": [1, -2]}, "'phom_rank_stakes[1]'"),
        ({"preset": "chan", "chan_fine_cuoc": "leo", "cuoc": {"leo": None}}, "'chan_fine_cuoc'"),
        ({"preset": "chan", "chan_ga_cuoc": ["tam_do", "chi_nay_x"]}, "'chan_ga_cuoc'"),
        ({"preset": "luat-2005", "family": "chan"}, "'cuoc."),
    ],
)
def test_bad_overrides_are_refused_naming_the_key(spec, named):
    with pytest.raises(RuleError) as exc:
        load_rules(spec)
    assert named in str(exc.value)
    assert str(exc.value).startswith("Luật")


@pytest.mark.parametrize("spec", ["luat-2006", {"preset": "luat"}, {"preset": 5}])
def test_unknown_preset_lists_the_presets(spec):
    with pytest.raises(RuleError) as exc:
        load_rules(spec)
    assert "Không có bộ luật" in str(exc.value)
    assert "'luat-2005'" in str(exc.value) and "'phom'" in str(exc.value)


def test_mapping_without_preset_is_refused():
    with pytest.raises(RuleError, match="thiếu khóa 'preset'"):
        load_rules({"suong": 4})


def test_from_dict_requires_core_fields():
    data = load_rules("luat-2005").to_dict()
    del data["suong"]
    with pytest.raises(RuleError, match="thiếu khóa 'suong'"):
        RuleSet.from_dict(data)


def test_xuyen_only_in_hoi_50():
    assert load_rules("hoi-50").value_of("xuyen") == (6, 1)
    with pytest.raises(CuocError) as exc:
        load_rules("luat-2005").value_of("xuyen")
    assert "không tính cước 'xuyen' (Xuyên)" in str(exc.value)


def test_khoi_has_no_fixed_value():
    with pytest.raises(CuocError, match="Khôi"):
        load_rules("luat-2005").value_of("khoi")


def test_cuoc_value_dich_defaults_to_boi():
    rules = load_rules({"preset": "luat-2005", "cuoc": {"bach_dinh": {"boi": 5, "dich": None}}})
    assert rules.cuoc["bach_dinh"] == CuocValue(main=None, dich=5, boi=5)


# -- money parameters ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "n", "gom"),
    [
        ("suong4-dich2", 5, 10),  # (2·24 + 2) / 5
        ("suong4-dich2", 4, 13),  # ceil(50 / 4)
        ("luat-2005", 5, 15),  # ceil((2·36 + 2) / 5)
        ("hoi-50", 5, 10),
        ("hoi-50", 4, 10),
        ({"preset": "luat-2005", "gom": 12}, 5, 12),
    ],
)
def test_gom_amount(spec, n, gom):
    assert load_rules(spec).gom_amount(n) == gom


def test_gom_without_chi_nay_needs_an_explicit_gom():
    with pytest.raises(RuleError, match="'gom'"):
        load_rules("chan").gom_amount(4)
    with pytest.raises(RuleError):
        load_rules("luat-2005").gom_amount(0)


ALL = set(GaContribution)
REGIMES = {
    "none": set(),
    "cong_nghiep": ALL,
    "nha": ALL
    - {GaContribution.DAU_HOI, GaContribution.DAU_VAN, GaContribution.NHAI, GaContribution.BI_DE_U},
    "rung": {GaContribution.DAU_HOI, GaContribution.U_BAO, GaContribution.DANH_U, GaContribution.THONG},
    "lang": {GaContribution.DANH_U, GaContribution.THONG},
}


@pytest.mark.parametrize("regime", list(GaTrongRegime))
def test_ga_trong_regime_table(regime):
    rules = load_rules({"preset": "luat-2005", "ga_trong": regime.value})
    assert {c for c in GaContribution if rules.ga_trong_applies(c)} == REGIMES[regime.value]
    assert rules.ga_trong_applies("danh_u") is (GaContribution.DANH_U in REGIMES[regime.value])


def test_ga_trong_amounts_default_to_one_dich_and_dau_hoi_two():
    amounts = load_rules("luat-2005").ga_trong_amounts
    assert set(amounts) == {c.value for c in GaContribution}
    assert amounts[GaContribution.DAU_HOI] == 2
    assert all(amounts[c] == 1 for c in GaContribution if c is not GaContribution.DAU_HOI)


def test_tieng_that_take_the_pots():
    rules = load_rules({"preset": "luat-2005", "ga_trong": "lang", "ga_ngoai": "don"})
    assert rules.takes_ga_trong(["leo", "kinh_cu"])
    assert not rules.takes_ga_trong(["leo", "tom"])
    assert rules.takes_ga_ngoai(["chi_nay"])
    assert not load_rules("luat-2005").takes_ga_trong(["kinh_cu"])  # no pot without a regime
    chan = load_rules("chan")
    assert chan.takes_chan_ga_nuoi(["chi", "bach_thu", "leo"])
    assert not chan.takes_chan_ga_nuoi(["bach_thu"])
    assert chan.takes_chan_ga_nuoi(["hoa_roi_cua_phat"])


def test_defaults_of_the_bookkeeping():
    rules = load_rules("luat-2005")
    assert rules.kinh_tu_co_policy is KinhTuCoPolicy.POINTS
    assert rules.den_lang_value() == 4
    assert rules.lanh_lang_breaks_streak is True and rules.chiu_pays is False
    assert rules.subsumes == {"chi_nay": ("leo",)}
    assert load_rules({"preset": "luat-2005", "den_lang_amount": 6}).den_lang_value() == 6


def test_chan_parameters():
    rules = load_rules("chan")
    assert rules.family is ScoringFamily.CHAN
    assert rules.chan_fine_value() == 12
    assert rules.plain_value() == 2
    assert rules.chan_ga_points == 5
    assert dict(rules.chan_ga_nuoi_amounts) == {"dau_van": 1, "chiu_noc": 1, "chiu_discard": 1, "nhai": 1}
    assert rules.chan_ga_nuoi_chi_chi_factor == 2


def test_phom_parameters():
    rules = load_rules({"preset": "phom", "phom_rank_stakes": [2, 4, 6]})
    assert rules.phom_rank_stakes == (2, 4, 6)
    assert load_rules("phom").phom_u_stake == 5
