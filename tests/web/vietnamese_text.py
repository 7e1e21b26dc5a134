"""Finding Vietnamese in text meant to be English: words with Vietnamese letters (letters with
diacritics, đ), less the names and game words a reader sees in both languages."""

from __future__ import annotations

import re
from collections.abc import Iterable

from scoring.engine import CATALOGUE, GAMES, PRESETS, khoi_name, load_rules

#: A letter with a diacritic (Latin-1 and Latin Extended-A/B letters, Vietnamese's own block).
LETTER = re.compile("[À-ÖØ-öø-ÿĀ-ſƠơƯưẠ-ỹ]")
WORD = re.compile(r"[\wÀ-ÖØ-öø-ÿĀ-ſƠơƯưẠ-ỹ]+")


def _rule_set_words() -> list[str]:
    """The preset rule sets' names and their names of the cước (a rule set may name one its way)."""
    words = []
    for slug in PRESETS:
        rules = load_rules(slug)
        words += [rules.name, *(rules.cuoc_name(c) for c in rules.cuoc)]
    return words


#: Game words kept in English (the glossary's): games, ván, hội, the ways of paying, the cước and
#: streaks' names, the preset rule sets' names.
GAME_WORDS = (
    "Tổ Tôm",
    "Chắn",
    *(game.name_vi for game in GAMES.values()),
    "Phỏm",
    "ván",
    "hội",
    "cước",
    "Thông",
    *(c.name for c in CATALOGUE.values()),
    "đánh quăng",
    "đánh gom",
    *(khoi_name(n) for n in range(3, 12)),
    *_rule_set_words(),
)


def vietnamese_words(text: str, *names: str) -> list[str]:
    """The words of ``text`` with Vietnamese letters that are not a name in ``names`` or a game word."""
    kept = sorted({*GAME_WORDS, *names}, key=len, reverse=True)
    for phrase in kept:
        text = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", text, flags=re.IGNORECASE)
    return [word for word in WORD.findall(text) if LETTER.search(word)]


def all_vietnamese(texts: Iterable[str], *names: str) -> list[str]:
    return sorted({word for text in texts for word in vietnamese_words(text, *names)})
