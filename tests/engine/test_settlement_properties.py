"""Properties of settlement over random sittings (every kind of ván, both modes).

* every ván keeps sum(balances) + pool + pot == 0, the pool and the pot never go below zero,
  every transfer moves a positive amount;
* the streak of a winner is the number of consecutive valid, paid wins;
* settle_up of the final accounts zeroes everything in at most (non-zero accounts − 1) transfers,
  and in exactly the fewest possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.errors import InvariantError
from scoring.engine.settlement import (
    GA_TRONG,
    POOL,
    Mode,
    initial_state,
    parse_van,
    rules_with_overrides,
    settle_sitting,
    settle_up,
    settle_van,
)
from tests.engine.possible import possible

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
GAMES: dict[str, dict[str, Any]] = {
    "to-tom-5": {
        "presets": ["luat-2005", "suong4-dich2", "suong2-dich1", "hoi-50"],
        "cuoc": [
            "suong",
            "tom",
            "leo",
            "bach_thu",
            "thien_u",
            "vong",
            "thap_dieu",
            "kinh_cu",
            "bach_dinh",
            "chi_nay",
            "kinh_tu_co",
        ],
        "ga": ["nhai", "quan_lo", "bi_de_u", "bo_u"],
        "players": (5, 5),
    },
    "chan": {
        "presets": ["chan"],
        "cuoc": ["xuong", "chi", "tom", "leo", "bach_thu", "bach_thu_chi", "tam_do", "co_chiu", "thap_thanh"],
        "ga": ["nhai", "chiu_noc", "chiu_discard"],
        "players": (2, 4),
    },
    "tai-ban": {"presets": ["tai-ban"], "cuoc": ["suong", "tai_ban", "suu_ban"], "ga": [], "players": (3, 3)},
    "phom": {"presets": ["phom"], "cuoc": [], "ga": [], "players": (2, 4)},
}
PAID_FAULTS = (None, "danh_u_den", "den_chong")


@st.composite
def win_van(draw: st.DrawFn, game: str, players: Sequence[str], regimes: Sequence[str]) -> dict[str, Any]:
    spec = GAMES[game]
    winner = draw(st.sampled_from(players))
    others = [p for p in players if p != winner]
    van: dict[str, Any] = {
        "winner": winner,
        "cuoc": possible(game, spec["presets"][0], draw(st.lists(st.sampled_from(spec["cuoc"]), max_size=3))),
    }
    chiu = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others) - 1))
    if chiu:
        van["chiu"] = chiu
    seated = [p for p in others if p not in chiu]
    fault = draw(st.sampled_from([None, None, "lanh_lang", "u_bao", "xuong_thua", "danh_u_den", "den_chong"]))
    if fault in ("danh_u_den", "den_chong") or (seated and draw(st.booleans())):
        van["discarder"] = draw(st.sampled_from(seated)) if seated else None
        if van["discarder"] is None:
            del van["discarder"]
            fault = None
    if fault == "xuong_thua":
        van["declared"] = possible(
            game, spec["presets"][0], [*van["cuoc"], draw(st.sampled_from(spec["cuoc"]))]
        )
    elif game != "chan" and van["cuoc"] and draw(st.booleans()):
        van["declared"] = van["cuoc"][:-1]  # xướng thiếu
    if fault is not None:
        van["fault"] = fault
    sitters = [p for p in seated if p != van.get("discarder")]
    if sitters and draw(st.booleans()):
        regime = draw(st.sampled_from(regimes))
        if not (regime == "ngoi_day" and fault in ("danh_u_den", "den_chong")):
            van["bao"], van["regime"] = draw(st.sampled_from(sitters)), regime
    return van


@st.composite
def any_van(draw: st.DrawFn, game: str, players: Sequence[str], regimes: Sequence[str]) -> dict[str, Any]:
    if game == "phom":
        if draw(st.booleans()):
            return {"ranks": draw(st.permutations(players))}
        winner = draw(st.sampled_from(players))
        van = {"winner": winner}
        if draw(st.booleans()):
            van["den"] = draw(st.sampled_from([p for p in players if p != winner]))
        return van
    kind = draw(st.sampled_from(["win", "win", "win", "hoa", "bao"]))
    if kind == "win":
        van = draw(win_van(game, players, regimes))
    elif kind == "hoa":
        van = {"result": "hoa"}
    else:
        van = {"bao": draw(st.sampled_from(players)), "regime": draw(st.sampled_from(regimes))}
    if GAMES[game]["ga"] and draw(st.booleans()):
        van["ga"] = [
            {
                "kind": draw(st.sampled_from(GAMES[game]["ga"])),
                "player": draw(st.sampled_from(players)),
                "count": draw(st.integers(1, 3)),
            }
        ]
    return van


@st.composite
def sittings(draw: st.DrawFn, regimes: Sequence[str] = ("den_lang", "ngoi_day", "cheo_do")) -> dict[str, Any]:
    game = draw(st.sampled_from(["to-tom-5", "to-tom-5", "to-tom-5", *GAMES]))
    spec = GAMES[game]
    low, high = spec["players"]
    players = FIVE[: draw(st.integers(low, high))]
    mode = "quang" if game == "phom" else draw(st.sampled_from(["quang", "gom"]))
    rules: dict[str, Any] = {"preset": draw(st.sampled_from(spec["presets"]))}
    if game == "to-tom-5":
        rules["kinh_tu_co_policy"] = draw(st.sampled_from(["points", "het_hoi"]))
        rules["gom_topup_below"] = draw(st.sampled_from([None, 30]))
        rules["ga_ngoai"] = draw(st.sampled_from(["none", "don", "chong"]))
        rules["ga_trong"] = draw(st.sampled_from(["none", "lang", "cong_nghiep", "nha", "rung"]))
    request = {"game": game, "rules": rules, "mode": mode, "players": players}
    if mode == "gom" and (game != "to-tom-5" or draw(st.booleans())):
        request["gom"] = draw(st.integers(1, 20))  # small pools: hội close often
    request["van"] = draw(st.lists(any_van(game, players, regimes), min_size=1, max_size=15))
    return request


def _fold(request: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    players = request["players"]
    return settle_sitting(
        players,
        [parse_van(v, players, i) for i, v in enumerate(request["van"], start=1)],
        game=request["game"],
        rules=rules_with_overrides(request),
        mode=Mode(request["mode"]),
    )


PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(sittings())
def test_every_van_keeps_the_ledger_zero_sum_with_non_negative_pots(request: dict[str, Any]) -> None:
    _, settled = _fold(request)
    for van in settled:
        state = van.state
        assert sum(state.balances) + state.pool + state.ga_trong == 0
        assert state.pool >= 0 and state.ga_trong >= 0
        assert all(t.amount > 0 and t.from_ != t.to for t in van.transfers)
        if request["mode"] == "quang":
            assert state.pool == 0


@PROPERTY_SETTINGS
@given(sittings(regimes=("den_lang", "ngoi_day")))
def test_streak_is_the_number_of_consecutive_valid_paid_wins(request: dict[str, Any]) -> None:
    _, settled = _fold(request)
    holder, run = None, 0
    for van, done in zip(request["van"], settled, strict=True):
        winner = van.get("winner")
        if request["game"] == "phom" or winner is None:
            assert done.streak == 0
            holder, run = None, 0
            continue
        expected = run + 1 if holder == winner else 1
        assert done.streak == expected
        if van.get("fault") in PAID_FAULTS:
            holder, run = winner, expected
        else:
            holder, run = None, 0


@PROPERTY_SETTINGS
@given(sittings())
def test_settle_up_of_the_final_accounts_zeroes_everything(request: dict[str, Any]) -> None:
    state, _ = _fold(request)
    accounts = state.balance_map() | {POOL: state.pool, GA_TRONG: state.ga_trong}
    transfers = settle_up(accounts)
    open_accounts = sum(1 for v in accounts.values() if v)
    assert len(transfers) <= max(open_accounts - 1, 0)
    after = dict(accounts)
    for t in transfers:
        after[t.from_] += t.amount
        after[t.to] -= t.amount
    assert set(after.values()) <= {0}
    if request["mode"] == "quang" and state.ga_trong == 0:
        assert len(settle_up(state.balance_map())) <= len(state.players) - 1


def _fewest_by_brute_force(values: list[int]) -> int:
    """k − (largest number of zero-sum blocks of a partition), over every set partition."""
    items = [v for v in values if v]

    def blocks(rest: list[int]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1
        for mask in range(1 << len(others)):
            chosen = [others[i] for i in range(len(others)) if mask >> i & 1]
            if first + sum(chosen) == 0:
                remaining = [others[i] for i in range(len(others)) if not mask >> i & 1]
                sub = blocks(remaining)
                if sub >= 0:
                    best = max(best, 1 + sub)
        return best

    return len(items) - max(blocks(items), 0) if items else 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=7))
def test_settle_up_is_exactly_minimal(values: list[int]) -> None:
    balances = {f"P{i}": v for i, v in enumerate(values)}
    balances["Cuối"] = -sum(values)
    transfers = settle_up(balances)
    assert len(transfers) == _fewest_by_brute_force(list(balances.values()))
    after = dict(balances)
    for t in transfers:
        assert t.amount > 0
        after[t.from_] += t.amount
        after[t.to] -= t.amount
    assert set(after.values()) == {0}


def test_a_broken_ledger_raises_invariant_error() -> None:
    state = initial_state(FIVE, "to-tom-5", "luat-2005", "quang")
    broken = replace(state, balances=(1, 0, 0, 0, 0))  # one point out of nowhere
    with pytest.raises(InvariantError):
        settle_van(broken, {"result": "hoa"}, game="to-tom-5", rules="luat-2005")
