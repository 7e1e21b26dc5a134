"""People's names as they enter the app: one cleaning, one comparison.

Every name a person types (a player, a seat, a registration at an event, a club or village, a
village rule set) goes through :func:`clean_name` before it is stored, and two names are the same
name when their :func:`name_key` are equal:

* **cleaning**: invisible characters are dropped (zero-width spaces and joiners, the byte-order
  mark, bidirectional controls, soft hyphens and every other Unicode *format* character, Hangul
  fillers, variation selectors), every kind of space, tab or line break becomes one plain space,
  runs of spaces become one, the ends are trimmed, and the text is composed (NFC): "Bình" typed on
  a keyboard that sends "i" + U+0300 is the same four letters as "Bình". The Icelandic capital eth
  "Ð" (U+00D0), which some keyboards give for Vietnamese "Đ" (U+0110) and which looks the same, is
  made "Đ". A name left empty, or of accents only, is refused.
* **comparing**: case does not count ("bình" = "Bình" = "BÌNH"), nor where the tone mark sits on a
  syllable (old and new spelling: "Hoà" = "Hòa", "Thuý" = "Thúy"); every accent does count:
  "Binh", "Bình" and "Bính" are three names, as they are three people in Vietnamese.
* **look-alikes**: a letter of another script, or of another form, that looks
  like a letter of the Vietnamese alphabet (a Cyrillic "А", a Greek "Ν", a fullwidth "Ａ", a
  mathematical "𝐀", a dotless "ı") counts as that letter: "Аnh Tư" written with a Cyrillic А is
  "Anh Tư". The letters come from Unicode's confusables (UTS #39, ``confusables.txt``, as shipped by
  the ``confusable-homoglyphs`` package): only characters outside the Vietnamese alphabet are
  replaced, by the plain Latin letter they are confusable with, so two genuine Vietnamese names are
  never folded together ("Tư" ≠ "Tu", "Đào" ≠ "Dao", "Hà" ≠ "Ha", "Ông" ≠ "Ong"; TR 39's own
  skeleton would turn "đ" into "d̵" and "ơ" into "o'"; it is not applied to Vietnamese letters).
  :func:`look_alike` tells a look-alike (one name by its key, not by its letters) from the same
  name typed again, so that a new name that only looks like a registered one is refused with the
  registered name in the message.

Names are stored as cleaned (as the person wrote them, tone placement included); keys are derived
(``Player.name_key``, ``Club.name_key``, ``VillageRuleSet.name_key``).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

from scoring.engine import N_, EngineError

__all__ = [
    "KEY_LENGTH",
    "LOOK_ALIKE",
    "clean_name",
    "first_clash",
    "latin_letters",
    "look_alike",
    "name_key",
    "refuse_look_alike",
    "tidy",
]

#: The refusal of a name that only looks like one already there (both named).
LOOK_ALIKE = N_(
    "Tên “{name}” trông giống hệt “{existing}” đã có, nhưng viết bằng chữ cái của bảng chữ khác (như "
    "chữ Kirin hay Hy Lạp): hãy gõ lại tên bằng chữ Việt, hoặc chọn “{existing}” nếu là cùng một người."
)

#: Longest stored key (a key is about as long as its name; names are at most 120 characters).
KEY_LENGTH = 255

#: Invisible characters that are not Unicode "format" (Cf) characters but show as nothing.
_INVISIBLE = {"\u034f", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u2800", "\u3164", "\uffa0"}
#: The five Vietnamese tone marks (huyền, sắc, ngã, hỏi, nặng), as combining characters.
_TONES = frozenset("\u0300\u0301\u0303\u0309\u0323")


def _invisible(char: str) -> bool:
    code = ord(char)
    return (
        unicodedata.category(char) == "Cf"
        or char in _INVISIBLE
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
    )


def _space(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Zs", "Zl", "Zp", "Cc")


def tidy(value: str) -> str:
    """The cleaned name (see the module's docstring); may be empty."""
    kept = []
    for char in value:
        if _invisible(char):
            continue
        kept.append(" " if _space(char) else char)
    text = unicodedata.normalize("NFC", " ".join("".join(kept).split()))
    return text.replace("\u00d0", "\u0110")


def clean_name(value: object, *, what: str, limit: int, empty: str | None = None) -> str:
    """``value`` cleaned, or a user error: not text, empty once cleaned, accents only, too long.

    ``what`` names the thing in the message ("người chơi", "làng hoặc câu lạc bộ" …); ``empty``
    replaces the message for a name left empty."""
    name = tidy(value) if isinstance(value, str) else ""
    if not name or all(unicodedata.category(c).startswith("M") or c == " " for c in name):
        if empty:
            raise EngineError(empty)
        raise EngineError(
            N_("Hãy nhập tên {what} (tên không được để trống hay chỉ có ký tự vô hình)."), what=what
        )
    if len(name) > limit:
        raise EngineError(N_("Tên {what} dài quá {limit} ký tự."), what=what, limit=limit)
    return name


#: Letters of the Vietnamese alphabet that decompose to no plain Latin letter.
_OWN_LETTERS = frozenset("đĐ")


@cache
def _latin_look_alikes() -> dict[str, str]:
    """Character → the plain Latin letters (or digits) it is confusable with (UTS #39 data)."""
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    found: dict[str, str] = {}
    for char, homoglyphs in json.loads(data).items():
        plain = [h["c"] for h in homoglyphs if h["c"].isascii() and h["c"].isalnum()]
        if plain and not (char.isascii() or char in _OWN_LETTERS):
            found[char] = min(plain, key=lambda c: (len(c), not c.isalpha(), c))
    return found


def _own(char: str) -> bool:
    """Part of written Vietnamese as it is: plain Latin, đ/Đ, a combining mark (the accents)."""
    return char.isascii() or char in _OWN_LETTERS or unicodedata.category(char).startswith("M")


def latin_letters(text: str) -> str:
    """``text`` (decomposed, NFD) with every character outside the Vietnamese alphabet that looks
    like a plain Latin letter replaced by that letter (the module's docstring: look-alikes)."""
    alikes = _latin_look_alikes()
    return "".join(c if _own(c) else alikes.get(c, c) for c in unicodedata.normalize("NFD", text))


def _key(name: str, *, fold_look_alikes: bool) -> str:
    text = unicodedata.normalize("NFD", tidy(name))
    if fold_look_alikes:
        text = unicodedata.normalize("NFD", latin_letters(text))
    words = []
    for word in text.casefold().split(" "):
        tones = "".join(sorted(c for c in word if c in _TONES))
        words.append(unicodedata.normalize("NFC", "".join(c for c in word if c not in _TONES) + tones))
    return " ".join(words)[:KEY_LENGTH]


def name_key(name: str) -> str:
    """What two names must share to be one name: cleaned, look-alike letters of other scripts made
    the Latin letters they look like, case folded, each syllable's tone mark moved to the
    syllable's end (so its place on the vowels does not count)."""
    return _key(name, fold_look_alikes=True)


def look_alike(name: str, other: str) -> bool:
    """Whether ``name`` only looks like ``other``: one name by :func:`name_key`, but written with
    letters of another script (not the same name typed again, in another case or tone placement)."""
    return name_key(name) == name_key(other) and _key(name, fold_look_alikes=False) != _key(
        other, fold_look_alikes=False
    )


def refuse_look_alike(name: str, existing: Iterable[str]) -> None:
    """A user error naming the first of ``existing`` that ``name`` only looks like, if any."""
    for other in existing:
        if look_alike(name, other):
            raise EngineError(LOOK_ALIKE, name=name, existing=other)


def first_clash(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two of ``names`` that are one name (see :func:`name_key`), or None."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None
