"""Properties of the hand checker (Hypothesis): exactness, completeness, order independence."""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine.cards import CARD_BY_CODE, CARDS
from scoring.engine.checker import Verdict, check_hand, find_waits
from scoring.engine.checker.phu import pack
from scoring.engine.checker.search import tt_search

SUITS = "vms"
LUNG = [
    ("7v", "3m", "3s"),
    ("cc", "9m", "8s"),
    ("8v", "2m", "2s"),
    ("tt", "9m", "9s"),
    ("tt", "oc", "9s"),
    ("1v", "2v", "3v"),
    ("9v", "1m", "1s"),
]
BI_SHAPED = {("7v", "3m", "3s"), ("8v", "2m", "2s"), ("tt", "9m", "9s"), ("9v", "1m", "1s")}
YEU = ["1v", "1m", "1s", "cc", "tt", "oc"]
PROPS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def phu(draw: st.DrawFn) -> list[str]:
    """One random phu, written from RULES §4 (not from the checker's catalogue)."""
    shape = draw(st.sampled_from(["yeu", "doc", "bi", "trung", "lung"]))
    if shape == "yeu":
        return [draw(st.sampled_from(YEU))]
    if shape == "doc":
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(3, 5))
        start = draw(st.integers(1, 10 - length))
        return [f"{r}{suit}" for r in range(start, start + length)]
    if shape == "bi":
        rank = draw(st.integers(1, 9))
        return [f"{rank}{s}" for s in SUITS for _ in range(draw(st.integers(1, 2)))]
    if shape == "trung":
        code = draw(st.sampled_from([c.code for c in CARDS]))
        return [code] * draw(st.integers(3, 4))
    return list(draw(st.sampled_from(LUNG)))


@st.composite
def valid_hands(draw: st.DrawFn, size: int = 21) -> list[str]:
    """A hand made of random phu, one of them a lưng, exactly ``size`` cards, ≤ 4 of a kind."""
    cards = list(draw(st.sampled_from(LUNG)))
    for _ in range(60):
        if len(cards) == size:
            break
        more = draw(phu())
        counts = Counter(cards + more)
        if len(cards) + len(more) <= size and max(counts.values()) <= 4:
            cards += more
    assume(len(cards) == size)
    return draw(st.permutations(cards))


@PROPS
@given(valid_hands())
def test_a_hand_of_phu_with_a_lung_is_valid(hand: list[str]) -> None:
    result = check_hand("to-tom-5", hand)
    assert result.valid and result.verdict is Verdict.OK
    assert Counter(c for p in result.arrangement for c in p) == Counter(hand)


@PROPS
@given(valid_hands())
def test_the_best_reading_is_one_no_other_reading_beats(hand: list[str]) -> None:
    # without a declaration the checker takes a fast path; with one it weighs every reading
    best = check_hand("to-tom-5", hand)
    assert check_hand("to-tom-5", hand, list(best.cuoc)).verdict is Verdict.OK


@PROPS
@given(valid_hands(), st.sampled_from([c.code for c in CARDS]), st.integers(0, 20))
def test_fast_and_full_readings_agree_on_near_valid_hands(hand: list[str], code: str, at: int) -> None:
    # one card swapped: often still tròn, sometimes without lưng, sometimes with junk
    near = [*hand[:at], code, *hand[at + 1 :]]
    assume(max(Counter(near).values()) <= 4)
    fast, full = check_hand("to-tom-5", near), check_hand("to-tom-5", near, [])
    assert (fast.tron, fast.valid) == (full.tron, full.valid)
    assert fast.verdict is full.verdict or (fast.verdict is Verdict.OK and full.verdict.valid_win)
    if fast.valid:
        assert check_hand("to-tom-5", near, list(fast.cuoc)).verdict is Verdict.OK


@st.composite
def bi_tu_hands(draw: st.DrawFn) -> list[str]:
    """A 25-card hand made of random phu with at least two lưng triples."""
    first, second = draw(st.sampled_from(LUNG)), draw(st.sampled_from(LUNG))
    hand = list(first) + list(second)
    assume(max(Counter(hand).values()) <= 4)
    for _ in range(60):
        if len(hand) == 25:
            break
        more = draw(phu())
        if len(hand) + len(more) <= 25 and max(Counter(hand + more).values()) <= 4:
            hand += more
    assume(len(hand) == 25)
    return hand


@PROPS
@given(bi_tu_hands())
def test_bi_tu_hands_with_two_lung_are_valid(hand: list[str]) -> None:
    result = check_hand("to-tom-4", hand)
    assert result.valid and len(result.lung) >= 2


@PROPS
@given(valid_hands(), st.data())
def test_a_missing_card_is_among_the_waits(hand: list[str], data: st.DataObject) -> None:
    missing = data.draw(st.sampled_from(hand))
    rest = list(hand)
    rest.remove(missing)
    assert check_hand("to-tom-5", rest).verdict is Verdict.SAI_SO_QUAN
    assert missing in {w.card.code for w in find_waits("to-tom-5", rest).waits}


@PROPS
@given(st.lists(st.sampled_from([c.code for c in CARDS]), min_size=21, max_size=21), st.randoms())
def test_shuffling_never_changes_the_answer(hand: list[str], rnd: object) -> None:
    assume(max(Counter(hand).values()) <= 4)
    shuffled = list(hand)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    first, second = check_hand("to-tom-5", hand), check_hand("to-tom-5", shuffled)
    assert (first.verdict, first.cuoc, first.valid) == (second.verdict, second.cuoc, second.valid)
    assert sorted(first.arrangement) == sorted(second.arrangement)


@PROPS
@given(valid_hands(), st.randoms())
def test_shuffling_a_valid_hand_keeps_its_cuoc(hand: list[str], rnd: object) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert check_hand("to-tom-5", hand).to_dict() == check_hand("to-tom-5", shuffled).to_dict()


# An independent brute force over small hands: every sub-multiset holding the first card is
# tried as a phu by the definitions of RULES §4 (with the bí-shaped lưng and lưng ghép).


def _phu_lung(cards: Counter[str]) -> int | None:
    """Lưng carried by ``cards`` as one phu, or None when they are not a phu."""
    kinds = sorted(cards)
    size = sum(cards.values())
    trung = sum(n >= 3 for n in cards.values())
    if size == 1:
        return 0 if kinds[0] in YEU else None
    if len(kinds) == 1:
        return 1 if size in (3, 4) else None
    for triple in LUNG:
        if set(kinds) == set(triple):
            allowed = range(1, 5) if triple in BI_SHAPED else (1, 3, 4)
            return 1 + trung if all(cards[k] in allowed for k in triple) else None
    if all(len(k) == 2 and k[0].isdigit() for k in kinds):
        ranks, suits = {k[0] for k in kinds}, {k[1] for k in kinds}
        if len(ranks) == 1 and suits == set(SUITS):
            return trung
        if len(suits) == 1 and all(n == 1 for n in cards.values()) and size >= 3:
            values = sorted(int(r) for r in ranks)
            if values == list(range(values[0], values[0] + size)):
                return 0
    return None


def _brute(cards: Counter[str]) -> set[int]:
    """Lưng counts (capped at 1) of every complete arrangement."""
    if not cards:
        return {0}
    first = min(cards)
    kinds = sorted(cards)
    out: set[int] = set()
    for take in product(*(range(cards[k] + 1) for k in kinds)):
        part = Counter({k: n for k, n in zip(kinds, take, strict=True) if n})
        if not part[first]:
            continue
        lung = _phu_lung(part)
        if lung is None:
            continue
        out |= {min(lung + rest, 1) for rest in _brute(cards - part)}
    return out


_SMALL_POOL = [
    "1v",
    "2v",
    "3v",
    "4v",
    "7v",
    "8v",
    "9v",
    "1m",
    "2m",
    "3m",
    "9m",
    "1s",
    "2s",
    "3s",
    "8s",
    "9s",
    "cc",
    "tt",
    "oc",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_SMALL_POOL), min_size=1, max_size=8))
def test_search_matches_a_brute_force_on_small_hands(hand: list[str]) -> None:
    cards = Counter(hand)
    assume(max(cards.values()) <= 4)
    search = tt_search(1)
    search.reset()
    counts = [0] * 30
    for code in hand:
        counts[CARD_BY_CODE[code].index] += 1
    mask = search.mask(pack(counts))
    levels = {lv for lv in (0, 1) if search.level(mask, lv)}
    assert levels == _brute(cards)


def test_brute_force_oracle_knows_the_lung() -> None:
    # guard against an oracle that cannot fail: it must see these shapes
    assert _brute(Counter(["7v", "3m", "3m", "3s", "3s"])) == {1}  # Bí Tôm
    assert _brute(Counter(["2v", "3v", "4v"])) == {0}
    assert _brute(Counter(["2v", "3v"])) == set()
    assert _phu_lung(Counter({"cc": 2, "9m": 1, "8s": 1})) is None  # a Lèo is not bí-shaped
