"""Rules are data: what sets a game family apart is a trait the engine holds
(``scoring.engine.FamilyTraits``), never a branch on the family's name outside the engine.

The grep finds a comparison with a family or a game's name in the app's code, templates and
scripts; the page test shows the start form offering đánh gom exactly when the trait says so.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from scoring.engine import FAMILY_TRAITS, GAMES, GameSlug, ScoringFamily

ROOT = Path(__file__).resolve().parent.parent
SEARCHED = ("scoring", "tournaments", "templates", "static")
SKIPPED = ("scoring/engine/", "static/vendor/", "/migrations/")
SUFFIXES = {".py", ".html", ".js", ".txt"}

#: Every family's and game's name as code spells it ("phom", "tai_ban", "to-tom-5" …).
NAMES = sorted({f.value for f in ScoringFamily} | {g.value for g in GameSlug}, key=len, reverse=True)
_NAME = "(?:" + "|".join(re.escape(n) for n in NAMES) + ")"
_LITERAL = rf"""(?:ScoringFamily\.\w+|GameSlug\.\w+|["']{_NAME}["'])"""
_OP = r"(?:===|!==|==|!=|\bis\s+not\b|\bis\b|\bnot\s+in\b|\bin\b)"
#: A comparison with a family's or game's name, either way round (``family is ScoringFamily.PHOM``,
#: ``game.family != "phom"``, ``pack.family === "chan"``, ``family in (ScoringFamily.TO_TOM, …)``).
COMPARISON = re.compile(rf"{_OP}\s*[\(\[{{]?\s*{_LITERAL}|{_LITERAL}\s*{_OP}")


def _files() -> list[Path]:
    out = []
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and not any(s in f"/{rel}" or rel.startswith(s) for s in SKIPPED):
                out.append(path)
    return out


def branches(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if COMPARISON.search(line)]


@pytest.mark.parametrize(
    "line",
    [
        "if game.family is ScoringFamily.PHOM:",
        'chips if game.family != "phom" else []',
        'if (pack.family === "chan") {',
        "if family in (ScoringFamily.TO_TOM, ScoringFamily.CHAN):",
        '{% if game.family == "chan" %}',
        'if sitting.game == "tai-ban":',
    ],
)
def test_the_grep_finds_a_branch_on_a_family_name(line: str) -> None:
    assert branches(line) == [line]


def test_the_grep_leaves_data_and_trait_reads_alone() -> None:
    assert not branches('DEFAULT_PRESET = {ScoringFamily.PHOM: "phom"}')
    assert not branches('{% if game.traits.ga_pot == "nuoi" %}')
    assert not branches("if c.rules.family == family:")
    assert not branches('<input type="hidden" name="game" value="phom">')


def test_no_branch_on_a_family_name_outside_the_engine() -> None:
    found = []
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}: {line}" for line in branches(path.read_text(encoding="utf-8", errors="replace"))]
    assert found == [], "a family difference belongs in scoring/engine/games.py FAMILY_TRAITS:\n" + "\n".join(
        found
    )


def test_every_family_has_traits() -> None:
    assert set(FAMILY_TRAITS) == set(ScoringFamily)
    assert all(GAMES[slug].traits is FAMILY_TRAITS[g.family] for slug, g in GAMES.items())


def _modes(client, game: str) -> set[str]:
    page = client.get(f"/so-diem/moi/?game={game}").content.decode()
    return set(re.findall(r'name="mode" value="(\w+)"', page))


@pytest.mark.django_db
@pytest.mark.usefixtures("signed_in")
def test_the_start_form_offers_gom_where_the_family_has_it(client, monkeypatch) -> None:
    assert _modes(client, "to-tom-5") == {"quang", "gom"}
    assert _modes(client, "chan") == {"quang", "gom"}
    assert _modes(client, "phom") == {"quang"}  # Phỏm is played quăng only

    # the page reads the trait, not the game's name: a Phỏm that had gom would offer it
    import scoring.engine.games as games

    traits = dict(games.FAMILY_TRAITS)
    traits[ScoringFamily.PHOM] = dataclasses.replace(traits[ScoringFamily.PHOM], has_gom=True)
    traits[ScoringFamily.TO_TOM] = dataclasses.replace(traits[ScoringFamily.TO_TOM], has_gom=False)
    monkeypatch.setattr(games, "FAMILY_TRAITS", traits)
    assert _modes(client, "phom") == {"quang", "gom"}
    assert _modes(client, "to-tom-5") == {"quang"}
