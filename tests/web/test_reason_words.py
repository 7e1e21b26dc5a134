"""The ledger's words (transfer reasons, transaction descriptions, breakdown lines) are stored in
Vietnamese and shown in the reader's language (issue 33, item 2): the engine's vocabulary is data
(scoring/engine/words.py), the ledger's in scoring/i18n.py, their English in django.po under the
context ``reason``; a stored text is matched back to its template when shown."""

from __future__ import annotations

import ast
import json
import string
from pathlib import Path
from typing import Any

import pytest
from django.template import Context, Template
from django.utils import translation

from scoring.engine import ENGINE_WORDS
from scoring.engine.settlement import replay
from scoring.engine.words import NUMBERS
from scoring.i18n import KIND_LABELS, WORDS, reason
from scoring.models import TransactionKind
from tests.web.vietnamese_text import GAME_WORDS, LETTER, all_vietnamese

pytestmark = pytest.mark.sqlite

ROOT = Path(__file__).resolve().parents[2]
CASES: list[dict[str, Any]] = json.loads((ROOT / "tests" / "data" / "replay_cases.json").read_text("utf-8"))
#: Words whose English is the same text (a game word and a number).
SAME_IN_ENGLISH = {"Ván", "Ván {seq}", "Ván {seq} ({note})"}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_word_has_english_with_no_other_placeholders() -> None:
    with translation.override("en"):
        for word in WORDS.words:
            english = translation.pgettext("reason", word)
            assert english != word or word in SAME_IN_ENGLISH, f"no English for {word!r}"
            assert _fields(english) <= _fields(word), (word, english)


def test_the_kinds_of_transaction_are_in_the_vocabulary() -> None:
    assert set(KIND_LABELS) == {str(label) for _, label in TransactionKind.choices}


@pytest.mark.parametrize("template", sorted(WORDS.templates))
def test_a_text_made_by_a_template_is_read_back_to_it(template: str) -> None:
    values = {
        name: "17" if name in NUMBERS else ("gà trong" if name in {"pot", "label"} else "Bà Tư: 2")
        for name in _fields(template)
    }
    text = template.format(**values)
    found = WORDS.read(text)
    assert found is not None
    assert found[0].format(**found[1]) == text


def test_the_engine_writes_its_words_only_through_its_vocabulary() -> None:
    """No f-string or literal with Vietnamese letters in settlement or points: a new reason is
    a word of scoring/engine/words.py (with its English), not text typed where it is used.
    Error messages (``N_`` codes) and the cước's names are the exceptions."""
    sources = [*sorted((ROOT / "scoring/engine/settlement").glob("*.py")), ROOT / "scoring/engine/points.py"]
    typed = []
    for path in sources:
        tree = ast.parse(path.read_text("utf-8"))
        skipped = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node):
                skipped.add(id(node.body[0].value))
            called = getattr(node, "func", None)
            if isinstance(node, ast.Call) and (
                getattr(called, "id", "") in {"N_", "InvariantError"}
                or getattr(called, "attr", "") == "startswith"
            ):
                skipped.update(id(arg) for arg in ast.walk(node))
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.JoinedStr):
                text = "".join(p.value for p in node.values if isinstance(p, ast.Constant))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if LETTER.search(text) and text not in GAME_WORDS:
                typed.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    assert typed == []


def test_a_sitting_s_reasons_in_english_and_unchanged_in_vietnamese() -> None:
    answer = replay(CASES[0]["request"])
    players = CASES[0]["request"]["players"]
    whys = [t["why"] for v in answer["van"] for t in v["transfers"]]
    assert len(whys) > 5
    assert all(WORDS.read(why) for why in whys)
    with translation.override("vi"):
        assert [reason(why) for why in whys] == whys
    with translation.override("en"):
        english = [reason(why) for why in whys]
    assert "Bình pays An 12 points: win: Lèo, Thông" in english
    assert all_vietnamese(english, *players) == []


def test_a_stored_reversal_and_a_correction_read_in_english() -> None:
    stored = "Đảo: Bình trả An 12 điểm: ù Lèo, Thông"
    with translation.override("en"):
        assert reason(stored) == "Reversed: Bình pays An 12 points: win: Lèo, Thông"
        assert reason("Sửa ván 3: ghi nhầm người ù") == "Correction of ván 3: ghi nhầm người ù"  # their words
        assert (
            reason("Ván 4 (tính lại sau khi sửa ván 2)") == "Ván 4 (recomputed after the correction of ván 2)"
        )
        assert reason("Chữ lạ không do sổ viết") == "Chữ lạ không do sổ viết"


def test_the_template_filter_follows_the_active_language() -> None:
    page = Template("{% load reasons %}{{ why|reason }}")
    why = "Chi góp 4 điểm vào gà trong: gà đầu ván"
    with translation.override("en"):
        assert (
            page.render(Context({"why": why}))
            == "Chi puts 4 points into the chicken pot: pot stake at the start of the ván"
        )
    with translation.override("vi"):
        assert page.render(Context({"why": why})) == why


def test_the_engine_vocabulary_is_pure_data_with_its_own_reader() -> None:
    """The engine reads its words back with whatever translator it is given (no Django)."""
    words = {
        "{payer} trả {payee} {amount} điểm: {label}": "{payer} → {payee}: {amount} ({label})",
        "về thứ {place}": "#{place}",
    }
    assert (
        ENGINE_WORDS.shown("Ông Ba trả Bình 3 điểm: về thứ 2", lambda s: words.get(s, s))
        == "Ông Ba → Bình: 3 (#2)"
    )
