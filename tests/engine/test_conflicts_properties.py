"""No false refusal (issue 21): whatever cước the hand checker finds in a real hand, the engine
scores that combination. For every game, random winning hands (the checker's generators of
tests/engine/test_checker_properties.py, and hands built here for the colours, Tài Bàn and Chắn)
→ their cước (and each wait's cước and the wait cước it allows) → ``score`` accepts them."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine.cards import CARDS, CHAN_CARDS
from scoring.engine.checker import check_hand, find_waits
from scoring.engine.conflicts import combination_problem
from scoring.engine.points import score
from scoring.engine.rules import load_rules
from tests.engine.test_checker_properties import bi_tu_hands, phu, valid_hands

PROPS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
RULES = {"to-tom-5": "hoi-50", "to-tom-4": "luat-2005", "tai-ban": "tai-ban", "chan": "chan"}


def accepted(game: str, cuoc: list[str]) -> None:
    """The engine scores ``cuoc`` (those the rule set values): no conflict refusal."""
    rules = load_rules(RULES[game])
    valued = [c for c in cuoc if c in rules.cuoc]
    assert combination_problem(game, rules, valued) is None, (game, valued)
    score(game, rules, valued)


# -- Tổ Tôm: the checker's own generators, and hands of one colour with 0, 1 or 4 Ông Cụ -----------

BLACK_LUNG = [("7v", "3m", "3s"), ("8v", "2m", "2s"), ("1v", "2v", "3v"), ("9v", "1m", "1s")]


@st.composite
def black_phu(draw: st.DrawFn) -> list[str]:
    shape = draw(st.sampled_from(["yeu", "doc", "bi", "trung", "lung"]))
    if shape == "yeu":
        return [draw(st.sampled_from(["1v", "1m", "1s"]))]
    if shape == "doc":
        suit = draw(st.sampled_from("vms"))
        top = 9 if suit == "v" else 7
        length = draw(st.integers(3, 5))
        start = draw(st.integers(1, top - length + 1))
        return [f"{r}{suit}" for r in range(start, start + length)]
    if shape == "bi":
        rank = draw(st.integers(1, 7))
        return [f"{rank}{s}" for s in "vms"]
    if shape == "trung":
        code = draw(st.sampled_from([c.code for c in CARDS if not c.is_red]))
        return [code] * draw(st.integers(3, 4))
    return list(draw(st.sampled_from(BLACK_LUNG)))


@st.composite
def one_colour_hands(draw: st.DrawFn) -> list[str]:
    """21 cards: black phu with a lưng, plus 0, 1 or 4 Ông Cụ (Bạch Định, Kính Cụ, Kính Tứ Cố)."""
    ong_cu = draw(st.sampled_from([0, 1, 4]))
    cards = list(draw(st.sampled_from(BLACK_LUNG)))
    size = 21 - ong_cu
    for _ in range(60):
        if len(cards) == size:
            break
        more = draw(black_phu())
        if len(cards) + len(more) <= size and max(Counter(cards + more).values()) <= 4:
            cards += more
    assume(len(cards) == size)
    return cards + ["oc"] * ong_cu


@PROPS
@given(st.one_of(valid_hands(), one_colour_hands()))
def test_the_cuoc_of_a_bi_ngu_hand_always_score(hand: list[str]) -> None:
    result = check_hand("to-tom-5", hand)
    assume(result.valid)
    accepted("to-tom-5", list(result.cuoc))


@PROPS
@given(one_colour_hands())
def test_one_colour_hands_reach_the_tu_tru(hand: list[str]) -> None:
    result = check_hand("to-tom-5", hand)
    assume(result.valid)
    expected = {0: "bach_dinh", 1: "kinh_cu", 4: "kinh_tu_co"}[hand.count("oc")]
    assert expected in result.cuoc  # the generator reaches the Tứ Trụ the table must accept
    accepted("to-tom-5", list(result.cuoc))


@PROPS
@given(valid_hands(), st.data())
def test_every_wait_s_cuoc_and_what_it_allows_score_together(hand: list[str], data: st.DataObject) -> None:
    missing = data.draw(st.sampled_from(hand))
    rest = list(hand)
    rest.remove(missing)
    for wait in find_waits("to-tom-5", rest).waits:
        accepted("to-tom-5", [*wait.cuoc, *wait.allows])


@PROPS
@given(bi_tu_hands())
def test_the_cuoc_of_a_bi_tu_hand_always_score(hand: list[str]) -> None:
    result = check_hand("to-tom-4", hand)
    assume(result.valid)
    accepted("to-tom-4", list(result.cuoc))


# -- Tài Bàn: 31 cards with many lưng ------------------------------------------------------------

LUNG = [
    ("7v", "3m", "3s"),
    ("cc", "9m", "8s"),
    ("8v", "2m", "2s"),
    ("tt", "9m", "9s"),
    ("tt", "oc", "9s"),
    ("1v", "2v", "3v"),
    ("9v", "1m", "1s"),
]


@st.composite
def tai_ban_hands(draw: st.DrawFn) -> list[str]:
    cards: list[str] = []
    for _ in range(80):
        if len(cards) == 31:
            break
        more = list(draw(st.sampled_from(LUNG))) if draw(st.booleans()) else draw(phu())
        if len(cards) + len(more) <= 31 and max(Counter(cards + more).values()) <= 4:
            cards += more
    assume(len(cards) == 31)
    return cards


@PROPS
@given(tai_ban_hands(), st.sampled_from([True, False]))
def test_the_cuoc_of_a_tai_ban_hand_always_score(hand: list[str], dealt_khan: bool) -> None:
    result = check_hand("tai-ban", hand, dealt_khan=dealt_khan)
    assume(result.valid)
    assert result.cuoc
    accepted("tai-ban", list(result.cuoc))


@PROPS
@given(tai_ban_hands(), st.sampled_from([True, False]), st.data())
def test_tai_ban_waits_name_cuoc_that_score(hand: list[str], dealt_khan: bool, data: st.DataObject) -> None:
    assume(check_hand("tai-ban", hand).valid)
    rest = list(hand)
    rest.remove(data.draw(st.sampled_from(hand)))
    waits = find_waits("tai-ban", rest, dealt_khan=dealt_khan).waits
    assert waits
    for wait in waits:
        assert wait.cuoc  # each wait names its cước (issue 21)
        accepted("tai-ban", list(wait.cuoc))


# -- Chắn: ten pairs, at least six chắn ------------------------------------------------------------

RANKED = [c.code for c in CHAN_CARDS if c.code != "cc"]


@st.composite
def chan_hands(draw: st.DrawFn) -> list[str]:
    """20 Chắn cards in 10 pairs: chắn (two identical, Chi Chi only with Chi Chi) and cạ."""
    cards: list[str] = []
    chan = draw(st.integers(6, 10))
    for _ in range(chan):
        code = draw(st.sampled_from([c.code for c in CHAN_CARDS]))
        cards += [code, code]
    for _ in range(10 - chan):
        first = draw(st.sampled_from(RANKED))
        other = draw(st.sampled_from([c for c in RANKED if c[0] == first[0] and c != first]))
        cards += [first, other]
    assume(max(Counter(cards).values()) <= 4)
    return cards


@PROPS
@given(chan_hands())
def test_the_cuoc_of_a_chan_hand_always_score(hand: list[str]) -> None:
    result = check_hand("chan", hand)
    assume(result.valid)
    accepted("chan", list(result.cuoc))


@PROPS
@given(chan_hands(), st.data())
def test_chan_waits_name_cuoc_that_score(hand: list[str], data: st.DataObject) -> None:
    assume(check_hand("chan", hand).valid)
    rest = list(hand)
    rest.remove(data.draw(st.sampled_from(hand)))
    for wait in find_waits("chan", rest).waits:
        accepted("chan", [*wait.cuoc, *wait.allows])
