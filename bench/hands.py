"""Benchmark of the hand checker (not a test).

Times, in one run and interleaved in chunks so that machine load hits both alike:

* ``check_hand`` on a seeded corpus of to-tom-5 hands: 10,000 valid hands built from random phu
  plus a lưng, and 10,000 random 21-card deals (nearly all invalid);
* the ``mahjong`` package's ``HandDivider.divide_hand`` on 10,000 random 14-tile winning hands
  (4 melds + a pair) built the same way;
* ``find_waits`` on 2,000 twenty-card hands (a valid hand with one card removed).

Run from the repository root: ``.venv/bin/python bench/hands.py [--quick] [--seed N]``.
Targets: ratio ≥ 1.0; waits median < 5 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine.cards import CARDS, Card, format_hand  # noqa: E402
from scoring.engine.checker import check_hand, find_waits  # noqa: E402
from scoring.engine.checker.phu import PHU_CATALOGUE, Phu  # noqa: E402

GAME = "to-tom-5"
HAND = 21
_LUNG3 = [p for p in PHU_CATALOGUE if p.lung and p.size == 3]
_SMALL = [p for p in PHU_CATALOGUE if p.size <= 4]


def valid_hand(rng: random.Random, size: int = HAND) -> tuple[Card, ...]:
    """A complete hand with a lưng: a random 3-card lưng, then random phu of up to 4 cards."""
    counts = [0] * len(CARDS)

    def add(phu: Phu) -> bool:
        if any(counts[i] + n > 4 for i, n in phu.counts):
            return False
        for i, n in phu.counts:
            counts[i] += n
        return True

    add(rng.choice(_LUNG3))
    total = 3
    while total < size:
        phu = rng.choice(_SMALL)
        if total + phu.size <= size and add(phu):
            total += phu.size
    cards = [CARDS[i] for i, n in enumerate(counts) for _ in range(n)]
    rng.shuffle(cards)
    return tuple(cards)


def random_deal(rng: random.Random, size: int = HAND) -> tuple[Card, ...]:
    """``size`` cards dealt from a shuffled 120-card deck."""
    deck = [c for c in CARDS for _ in range(4)]
    return tuple(rng.sample(deck, size))


def mahjong_hand(rng: random.Random) -> list[int]:
    """A 14-tile winning hand in 34-format: 4 random melds (chi or pon) and a pair."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for k in range(3):
                    counts[start + k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _interleaved(
    ours: Sequence[tuple[Card, ...]], theirs: Sequence[list[int]], chunks: int
) -> tuple[float, float]:
    from mahjong.hand_calculating.divider import HandDivider

    t_ours = t_theirs = 0.0
    step_o, step_t = len(ours) // chunks, len(theirs) // chunks
    for c in range(chunks):
        part_o = ours[c * step_o : (c + 1) * step_o]
        part_t = theirs[c * step_t : (c + 1) * step_t]
        t_ours += _timed(lambda part=part_o: [check_hand(GAME, h) for h in part])
        t_theirs += _timed(lambda part=part_t: [HandDivider.divide_hand(h) for h in part])
    return len(ours) / t_ours, len(theirs) / t_theirs


def _slowest(
    hands: Sequence[tuple[Card, ...]], fn: Callable[[tuple[Card, ...]], object]
) -> tuple[list[float], float, tuple[Card, ...]]:
    """Time of each hand (best of 3, so that a scheduler hiccup is not taken for the checker's
    worst hand) and the slowest hand with its time."""
    times = [min(_timed(lambda hand=hand: fn(hand)) for _ in range(3)) for hand in hands]
    slowest = max(range(len(hands)), key=times.__getitem__)
    return times, times[slowest], hands[slowest]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small corpus (1/10)")
    parser.add_argument("--seed", type=int, default=20240521)
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    rng = random.Random(args.seed)
    valid = [valid_hand(rng) for _ in range(10_000 // scale)]
    deals = [random_deal(rng) for _ in range(10_000 // scale)]
    waiting = [tuple(h[1:]) for h in (valid_hand(rng) for _ in range(2_000 // scale))]
    tiles = [mahjong_hand(rng) for _ in range(10_000 // scale)]
    ours = [h for pair in zip(valid, deals, strict=True) for h in pair]
    check_hand(GAME, valid[0])  # warm up: builds the phu tables once (as importing mahjong does)
    try:
        x, y = _interleaved(ours, tiles, chunks=20)
    except ImportError:
        print("mahjong is not installed in .venv: cannot compare (pip install mahjong)")
        return 1
    n_valid = sum(check_hand(GAME, h).valid for h in valid)
    n_deals = sum(check_hand(GAME, h).valid for h in deals)
    print(f"check_hand: {x:.0f} hands/s; mahjong divider: {y:.0f} hands/s; ratio {x / y:.2f}")
    print(
        f"  corpus: {len(valid)} built hands ({n_valid} valid), {len(deals)} random deals ({n_deals} valid)"
    )
    _, worst_time, worst = _slowest(ours, lambda h: check_hand(GAME, h))
    print(f"  check_hand worst: {worst_time * 1000:.2f} ms on {format_hand(worst)}")
    times, worst_time, worst = _slowest(waiting, lambda h: find_waits(GAME, h))
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(
        f"waits (20 cards): median {statistics.median(ms):.2f} ms; p95 {p95:.2f} ms; "
        f"worst {worst_time * 1000:.2f} ms on {format_hand(worst)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
