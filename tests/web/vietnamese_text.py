"""Finding Vietnamese in text meant to be English: words with Vietnamese letters (letters with
diacritics, đ), less the names and game words a reader sees in both languages."""

from __future__ import annotations

import re
from collections.abc import Iterable

from scoring.engine import CATALOGUE, khoi_name

#: A letter with a diacritic (Latin-1 and Latin Extended-A/B letters, Vietnamese's own block).
LETTER = re.compile("[À-ÖØ-öø-ÿĀ-ſƠơƯưẠ-ỹ]")
WORD = re.compile(r"[\wÀ-ÖØ-öø-ÿĀ-ſƠơƯưẠ-ỹ]+")

#: Game words kept in English (the glossary's): games, ván, hội, the cước and streaks' names.
GAME_WORDS = (
    "Tổ Tôm",
    "Chắn",
    "Phỏm",
    "ván",
    "hội",
    "cước",
    "Thông",
    *(c.name for c in CATALOGUE.values()),
    *(khoi_name(n) for n in range(3, 12)),
)


def vietnamese_words(text: str, *names: str) -> list[str]:
    """The words of ``text`` with Vietnamese letters that are not a name in ``names`` or a game word."""
    kept = sorted({*GAME_WORDS, *names}, key=len, reverse=True)
    for phrase in kept:
        text = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", text, flags=re.IGNORECASE)
    return [word for word in WORD.findall(text) if LETTER.search(word)]


def all_vietnamese(texts: Iterable[str], *names: str) -> list[str]:
    return sorted({word for text in texts for word in vietnamese_words(text, *names)})
