"""docs/ratings.md says what the rating model does: its figures (one win at a table of five, the table
of how μ and σ move with a member's share of wins, the scatter of equal members) are recomputed here
from the model the club book uses and compared with the numbers written on the page."""

from __future__ import annotations

import random
import re
import statistics
from pathlib import Path

import pytest

from scoring.services.ratings import MODEL

DOC = (Path(__file__).resolve().parents[2] / "docs" / "ratings.md").read_text(encoding="utf-8")


def test_the_model_is_the_one_the_page_names() -> None:
    assert type(MODEL).__name__ == "PlackettLuce"
    assert (MODEL.mu, round(MODEL.sigma, 2)) == (25.0, 8.33)
    assert "μ = 25, σ = 25/3 ≈ 8.33" in DOC


def test_one_win_at_a_fresh_table_as_the_page_says() -> None:
    [[w], [loser], *_rest] = MODEL.rate([[MODEL.rating()] for _ in range(5)], ranks=[1, 2, 2, 2, 2])
    said = (
        f"goes from μ 25 to **{w.mu:.2f}** (σ {w.sigma:.2f}) and each of the four\n"
        f"others to **{loser.mu:.2f}** (σ {loser.sigma:.2f})"
    )
    assert said in DOC
    assert (w.mu - 25) == pytest.approx(4 * (25 - loser.mu))  # "four times what each loser gives up"
    [[a], [b]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert f"the same win is {a.mu:.2f} against\n{b.mu:.2f}" in DOC


def _run(share: float, van: int, seed: int) -> tuple[float, float, float]:
    """Five fixed players; player 0 wins ``share`` of the ván, the others the rest evenly."""
    rng = random.Random(seed)
    table = [MODEL.rating() for _ in range(5)]
    for _ in range(van):
        winner = 0 if rng.random() < share else rng.randrange(1, 5)
        table = [
            r for [r] in MODEL.rate([[r] for r in table], ranks=[1 if i == winner else 2 for i in range(5)])
        ]
    return table[0].mu, table[0].sigma, MODEL.predict_win([[r] for r in table])[0]


@pytest.mark.parametrize("share", [10, 20, 30, 40])
def test_the_table_of_shares_is_what_the_model_gives(share: int) -> None:
    row = re.search(rf"^\| {share} %[^|]*\|(.*)$", DOC, re.MULTILINE)
    assert row is not None
    cells = [c.strip() for c in row.group(1).strip().strip("|").split("|")]
    figures = []
    for van in (20, 100, 300):
        runs = [_run(share / 100, van, seed) for seed in range(20)]
        figures.append(
            f"{statistics.mean(r[0] for r in runs):.1f}, {statistics.mean(r[1] for r in runs):.1f}"
        )
        if van == 300:
            figures.append(f"{statistics.mean(r[2] for r in runs):.0%}".replace("%", " %"))
        if share == 20 and van in (20, 100):
            scatter = statistics.pstdev(r[0] for r in runs)
            assert f"**{scatter:.1f}** after {van}" in DOC.replace("\n", " ")
    assert cells == figures
