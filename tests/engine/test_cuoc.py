"""The cước catalogue (docs/rules.md §5, §11, §12)."""

from __future__ import annotations

import pytest

from scoring.engine.cuoc import CATALOGUE, Derivability, cuoc_for_game, get_cuoc, khoi_name
from scoring.engine.errors import CuocError, GameError
from scoring.engine.games import GameSlug

TT = {"to-tom-5", "to-tom-4", "to-tom-diem"}

EXPECTED = {
    # slug: (name, games)
    "suong": ("Suông", TT | {"tai-ban"}),
    "thong": ("Thông", TT | {"chan"}),
    "khoi": ("Khôi", TT),
    "tom": ("Tôm", TT | {"chan"}),
    "leo": ("Lèo", TT | {"chan"}),
    "bach_thu": ("Bạch Thủ", TT | {"chan"}),
    "xuyen_nam_gian": ("Xuyên Năm Gian", TT),
    "xuyen_bi_tu": ("Xuyên Bí Tư", TT),
    "xuyen": ("Xuyên", TT),
    "vong": ("Vọng", TT),
    "thien_u": ("Thiên Ù", TT | {"chan"}),
    "thap_dieu": ("Thập Điều", {"to-tom-5", "to-tom-diem"}),
    "kinh_cu": ("Kính Cụ", {"to-tom-5", "to-tom-diem"}),
    "bach_dinh": ("Bạch Định", TT | {"chan"}),
    "chi_nay": ("Chi Nẩy", TT),
    "kinh_tu_co": ("Kính Tứ Cố", TT),
    "kinh_2_cu": ("Kính 2 Cụ", {"to-tom-4"}),
    "thap_nhi_dieu": ("Thập Nhị Điều", {"to-tom-4"}),
    "tai_ban": ("Tài Bàn", {"tai-ban"}),
    "suu_ban": ("Sửu Bàn", {"tai-ban"}),
    "xuong": ("Xuông", {"chan"}),
    "dia_u": ("Địa Ù", {"chan"}),
    "chi": ("Chì", {"chan"}),
    "co_thien_khai": ("Có Thiên Khai", {"chan"}),
    "co_chiu": ("Có Chíu", {"chan"}),
    "co_bon": ("Có Bòn", {"chan"}),
    "bach_thu_chi": ("Bạch Thủ Chi", {"chan"}),
    "tam_do": ("Tám Đỏ", {"chan"}),
    "thap_thanh": ("Thập Thành", {"chan"}),
    "kinh_tu_chi": ("Kính Tứ Chi", {"chan"}),
    "hoa_roi_cua_phat": ("Hoa Rơi Cửa Phật", {"chan"}),
    "ca_loi_san_dinh": ("Cá Lội Sân Đình", {"chan"}),
    "ngu_ong_bat_ca": ("Ngư Ông Bắt Cá", {"chan"}),
    "nha_lau_xe_hoi_hoa_roi_cua_phat": ("Nhà Lầu Xe Hơi Hoa Rơi Cửa Phật", {"chan"}),
}


def test_catalogue_holds_every_cuoc_of_the_rules_once():
    assert set(CATALOGUE) == set(EXPECTED)


@pytest.mark.parametrize(("slug", "name", "games"), [(s, n, g) for s, (n, g) in EXPECTED.items()])
def test_name_and_games(slug, name, games):
    cuoc = get_cuoc(slug)
    assert cuoc.slug == slug
    assert cuoc.name == name
    assert {g.value for g in cuoc.games} == games
    assert cuoc.description


def test_tu_tru_are_the_pillars_and_kinh_tu_co():
    tu_tru = {s for s, c in CATALOGUE.items() if c.tu_tru}
    assert tu_tru == {
        "thap_dieu",
        "kinh_cu",
        "bach_dinh",
        "chi_nay",
        "kinh_tu_co",
        "kinh_2_cu",
        "thap_nhi_dieu",
    }


@pytest.mark.parametrize(
    ("slug", "derivable"),
    [
        ("thap_dieu", Derivability.CARDS),
        ("tom", Derivability.CARDS),
        ("bach_thu", Derivability.WAIT),
        ("xuyen_bi_tu", Derivability.WAIT),
        ("thong", Derivability.HISTORY),
        ("chi_nay", Derivability.HISTORY),
        ("vong", Derivability.EVENT),
        ("thien_u", Derivability.EVENT),
    ],
)
def test_what_the_checker_needs(slug, derivable):
    assert get_cuoc(slug).derivable is derivable


def test_streak_cuoc_are_marked():
    assert {s for s, c in CATALOGUE.items() if c.streak} == {"thong", "khoi"}


def test_bi_tu_replaces_kinh_cu_and_thap_dieu():
    tt4 = {c.slug for c in cuoc_for_game("to-tom-4")}
    assert {"kinh_2_cu", "thap_nhi_dieu"} <= tt4
    assert not {"kinh_cu", "thap_dieu"} & tt4


def test_phom_has_no_cuoc():
    assert cuoc_for_game(GameSlug.PHOM) == ()


def test_tai_ban_has_three_cuoc():
    assert {c.slug for c in cuoc_for_game("tai-ban")} == {"suong", "tai_ban", "suu_ban"}


def test_cuoc_for_unknown_game_is_a_game_error():
    with pytest.raises(GameError):
        cuoc_for_game("bai-cao")


def test_lookup_ignores_case_and_spaces():
    assert get_cuoc(" Thap_Dieu ") is CATALOGUE["thap_dieu"]


@pytest.mark.parametrize(
    ("bad", "suggestion"), [("thap_diu", "thap_dieu"), ("leoo", "leo"), ("chinay", "chi_nay")]
)
def test_unknown_cuoc_lists_close_matches(bad, suggestion):
    with pytest.raises(CuocError) as exc:
        get_cuoc(bad)
    assert f"Không có cước '{bad}'" in str(exc.value)
    assert suggestion in str(exc.value)


def test_unknown_cuoc_without_close_match():
    with pytest.raises(CuocError, match="Không có cước 'zzzz'"):
        get_cuoc("zzzz")


@pytest.mark.parametrize(
    ("n", "name"),
    [
        (3, "Tam Khôi"),
        (4, "Tứ Khôi"),
        (5, "Ngũ Khôi"),
        (6, "Lục Khôi"),
        (7, "Thất Khôi"),
        (8, "Bát Khôi"),
        (9, "Cửu Khôi"),
        (10, "Thập Khôi"),
        (11, "11 Khôi"),
    ],
)
def test_khoi_names(n, name):
    assert khoi_name(n) == name
