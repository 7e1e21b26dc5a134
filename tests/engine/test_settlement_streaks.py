"""Streaks are computed, never typed in (docs/rules.md §8 "Streaks"): the number of consecutive
valid, paid wins; any other ván ends it; a lành làng win counts as no win."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.settlement import replay

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
TOM_AN = {"winner": "An", "cuoc": ["tom"]}


def _streaks(
    van: list[dict[str, Any]], rules: Any = "luat-2005", mode: str = "quang"
) -> list[tuple[int, int]]:
    answer = replay({"game": "to-tom-5", "rules": rules, "mode": mode, "players": FIVE, "van": van})
    return [(v["streak"], v["points"]) for v in answer["van"]]


@pytest.mark.parametrize(
    ("van", "expected"),
    [
        # Tôm 8; Tôm + Thông 1 dịch = 10; Tôm + Tam Khôi (6 + 2, 1 dịch) = 10; Tứ Khôi (10, 2 dịch):
        # Tứ Khôi 10 + Tôm 1 dịch x 2 = 12
        pytest.param([TOM_AN] * 4, [(1, 8), (2, 10), (3, 10), (4, 12)], id="Tôm, Thông, Tam Khôi, Tứ Khôi"),
        pytest.param([TOM_AN, {"result": "hoa"}, TOM_AN], [(1, 8), (0, 0), (1, 8)], id="a draw breaks it"),
        pytest.param(
            [TOM_AN, {"winner": "Bình", "cuoc": ["tom"]}, TOM_AN],
            [(1, 8), (1, 8), (1, 8)],
            id="another win breaks it",
        ),
        # the lành làng win is scored at its would-be streak 2 (10) but counts as no win
        pytest.param(
            [TOM_AN, {**TOM_AN, "fault": "lanh_lang"}, TOM_AN],
            [(1, 8), (2, 10), (1, 8)],
            id="lành làng breaks it",
        ),
        pytest.param(
            [TOM_AN, {**TOM_AN, "fault": "u_bao"}, TOM_AN],
            [(1, 8), (2, 4), (1, 8)],
            id="ù báo breaks it (đền 4)",
        ),
        pytest.param(
            [TOM_AN, {"bao": "Chi", "regime": "den_lang"}, TOM_AN],
            [(1, 8), (0, 0), (1, 8)],
            id="a báo breaks it",
        ),
        # someone else's báo in the ván An wins does not break An's streak
        pytest.param(
            [TOM_AN, {**TOM_AN, "bao": "Chi", "regime": "ngoi_day"}],
            [(1, 8), (2, 10)],
            id="báo + win keeps it",
        ),
        # xướng thiếu is still a valid, paid win
        pytest.param(
            [TOM_AN, {"winner": "An", "cuoc": ["leo", "tom"], "declared": ["tom"]}, TOM_AN],
            [(1, 8), (2, 10), (3, 10)],
            id="xướng thiếu keeps it",
        ),
        # đánh ù đền: the win is valid (the discarder pays it)
        pytest.param(
            [TOM_AN, {**TOM_AN, "discarder": "Em", "fault": "danh_u_den"}],
            [(1, 8), (2, 10)],
            id="đánh ù đền keeps it",
        ),
    ],
)
def test_streaks(van: list[dict[str, Any]], expected: list[tuple[int, int]]) -> None:
    assert _streaks(van) == expected


def test_lanh_lang_may_leave_the_streak_alone() -> None:
    rules = {"preset": "luat-2005", "lanh_lang_breaks_streak": False}
    assert _streaks([TOM_AN, {**TOM_AN, "fault": "lanh_lang"}, TOM_AN], rules) == [(1, 8), (2, 10), (2, 10)]


def test_streaks_run_across_hoi_boundaries() -> None:
    # hoi-50: Chi Nẩy 24 (pool 26); Chi Nẩy + Thông 1 dịch x 2 = 26 empties the pool (hội 1 closes);
    # hội 2: suông at streak 3 = Tam Khôi (hoi-50: 4 + 2 x (3 - 1) = 8)
    van = [
        {"winner": "An", "cuoc": ["chi_nay"]},
        {"winner": "An", "cuoc": ["chi_nay"]},
        {"winner": "An", "cuoc": ["suong"]},
    ]
    answer = replay({"game": "to-tom-5", "rules": "hoi-50", "mode": "gom", "players": FIVE, "van": van})
    assert [(v["streak"], v["points"]) for v in answer["van"]] == [(1, 24), (2, 26), (3, 8)]
    assert answer["hoi"][0]["closed_after_van"] == 2


def test_the_computed_streak_is_what_is_paid() -> None:
    answer = replay(
        {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": FIVE, "van": [TOM_AN] * 3}
    )
    # 4 x (8 + 10 + 10) = 112
    assert answer["balances"]["An"] == 112
