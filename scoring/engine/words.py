"""The engine's user-facing words, as data: the reasons it gives its transfers and the lines of a
win's breakdown.

The engine writes Vietnamese (the ledger stores what it was given and is never edited). A reader
of another language sees a stored text through :meth:`Vocabulary.shown`: the text is matched back
to the template that made it, the template is translated (the app passes ``gettext``), and the
placeholders are put back: numbers and names as written, a phrase (a label, a pot's name)
translated the same way in turn. A text that matches nothing (a scorekeeper's own words) is shown
as written.

A placeholder's kind is its name: the names in :data:`NUMBERS` hold numbers, the ones in
:data:`PHRASES_IN` hold words of this vocabulary, every other one holds a name (a player's, a
cước's), kept as written.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = [
    "BOI_NAMES",
    "BREAKDOWN",
    "ENGINE_WORDS",
    "GA_NAMES",
    "LABELS",
    "NUMBERS",
    "PHRASES",
    "PHRASES_IN",
    "REASONS",
    "Vocabulary",
]

#: Placeholders that hold a number.
NUMBERS = frozenset(
    {"amount", "each", "shares", "worth", "place", "index", "below", "main", "boi", "stake", "suong"}
    | {"dich", "step", "streak", "count", "seq", "k", "id"}
)
#: Placeholders that hold a phrase of the vocabulary (translated in turn).
PHRASES_IN = frozenset({"label", "pot", "why", "note", "text"})

#: The reasons of transfers: who pays whom, how much, and for what (``label``).
REASONS: Mapping[str, str] = MappingProxyType(
    {
        "pay": "{payer} trả {payee} {amount} điểm: {label}",
        "pool_pays": "Làng trả {payee} {amount} điểm: {label}",
        "pool_pays_short": "Làng trả {payee} {amount} điểm (hết điểm làng; ván đáng {worth} điểm): {label}",
        "substitute_gom": "{payer} trả {payee} {amount} điểm thay làng: {label}",
        "substitute": "{payer} trả {payee} {amount} điểm thay làng ({each} × {shares}): {label}",
        "den_lang_pool": "{payer} đền làng {amount} điểm vào điểm làng ({each} × {shares}): {label}",
        "den_lang": "{payer} đền làng, trả {payee} {amount} điểm: {label}",
        "ga_feed": "{payer} góp {amount} điểm vào {pot}: {label}",
        "ga_take": "{payee} ăn {pot} {amount} điểm: {label}",
        "hoi_gom": "{payer} góp {amount} điểm vào điểm làng: gom đầu hội {index}",
        "topup": "{payer} góp thêm {amount} điểm cho {payee}: làng ít điểm (dưới {below}), {label}",
        "het_hoi": "{payee} ăn cả điểm làng {amount} điểm: {label}, hết hội",
        "phom_den": "{payer} đền {payee} {amount} điểm ({each} × {shares}): cho ăn ba quân, ù",
    }
)

#: Labels built from parts: what a win or a place is paid as.
LABELS: Mapping[str, str] = MappingProxyType(
    {
        "win": "ù {names}",
        "ga_ngoai": "gà ngoài ({label})",
        "place": "về thứ {place}",
    }
)

#: The lines of a win's breakdown: how its points were reached.
BREAKDOWN: Mapping[str, str] = MappingProxyType(
    {
        "main": "giá trị chính: {main} điểm",
        "tai_ban": "{boi} × mức cược N = {boi} × {stake}",
        "suong": "ù suông: {main} điểm",
        "boi": "bội {boi_name}: {boi} × {suong}",
        "boi_dich": "bội {boi_name}: {boi} × {suong} + {boi} dịch × {dich}",
        "thong": "Thông: {main} điểm",
        "thong_streak": "Thông (thắng {streak} ván liên tiếp): {main} điểm",
        "khoi": "{khoi} (thắng {streak} ván liên tiếp): {suong} + {step} × {dich}",
        "dich": "{count} dịch × {dich} điểm",
        "subsumed": "đã nằm trong {names}: không tính thêm",
        "ga": "{count} gà × {each} điểm",
    }
)

#: The multiples' Vietnamese numerals, in a breakdown's "bội …" line.
BOI_NAMES: Mapping[int, str] = MappingProxyType(
    {
        2: "nhị",
        3: "tam",
        4: "tứ",
        5: "ngũ",
        6: "lục",
        7: "thất",
        8: "bát",
        9: "cửu",
        10: "thập",
        12: "thập nhị",
    }
)

#: Names of the gà trong contributions (Chắn: gà nuôi), by the contribution's slug.
GA_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "dau_hoi": "gà đầu hội",
        "dau_van": "gà đầu ván",
        "nhai": "gà nhái",
        "danh_u": "gà đánh ù",
        "thong": "gà thông",
        "bo_u": "gà bỏ ù",
        "u_lanh_lang": "gà ù lành làng",
        "u_bao": "gà ù báo",
        "den_lang": "gà đền làng",
        "quan_lo": "gà quân lộ",
        "bi_de_u": "gà bị đè ù",
        "chiu_noc": "gà chíu nọc",
        "chiu_discard": "gà chíu quân đánh",
    }
)

#: Fixed phrases: the pots' names, why a fine is paid, what a payment is for.
PHRASES: Mapping[str, str] = MappingProxyType(
    {
        "ga_trong": "gà trong",
        "ga_nuoi": "gà nuôi",
        "ga_line": "Gà",
        "pool": "điểm làng",
        "u": "ù",
        "settle_up": "thanh toán cuối canh",
        "bao_den_lang": "báo đền làng",
        "phat_den_lang": "phạt đền làng",
        "cheo_do_unpaid": "báo chèo đò chưa trả khi hết hội",
        "den_chong": "đền chồng (quân đánh ù bị báo)",
        "xuong_thua": "xướng thừa, xướng sao đền vậy",
        "u_bao": "ù báo",
        **{f"ga_{slug}": name for slug, name in GA_NAMES.items()},
    }
)

Translate = Callable[[str], str]

_NUMBER = r"-?\d+(?:[.,]\d+)*"


def _fields(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def _pattern(template: str) -> re.Pattern[str]:
    """The regular expression that reads a text made by ``template`` back into its fields."""
    parts = []
    seen: set[str] = set()
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name is None:
            continue
        if name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>{_NUMBER if name in NUMBERS else '.+?'})")
    return re.compile("".join(parts), re.DOTALL)


def _literal_length(template: str) -> int:
    return sum(len(literal) for literal, _, _, _ in string.Formatter().parse(template))


@dataclass(frozen=True)
class Vocabulary:
    """Fixed phrases and templates, and how to show a text they made in another language."""

    phrases: tuple[str, ...]
    templates: tuple[str, ...]
    _compiled: tuple[tuple[str, re.Pattern[str]], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The most specific first: a template that starts with words before one that starts with a
        # name ("Đảo: {why}" before "{payer} trả …"), then the longest ("Làng trả …" first).
        ordered = sorted(set(self.templates), key=lambda t: (t.startswith("{"), -_literal_length(t), t))
        object.__setattr__(self, "_compiled", tuple((t, _pattern(t)) for t in ordered))

    @classmethod
    def of(cls, *groups: Iterable[str], phrases: Iterable[str] = ()) -> Vocabulary:
        templates = tuple(t for group in groups for t in group)
        return cls(phrases=tuple(phrases), templates=templates)

    def __add__(self, other: Vocabulary) -> Vocabulary:
        return Vocabulary(self.phrases + other.phrases, self.templates + other.templates)

    @property
    def words(self) -> tuple[str, ...]:
        """Every msgid a translator needs: the phrases and the templates."""
        return tuple(dict.fromkeys(self.phrases + self.templates))

    def read(self, text: str) -> tuple[str, dict[str, str]] | None:
        """The template that made ``text`` and its fields; None when none did."""
        for template, pattern in self._compiled:
            found = pattern.fullmatch(text)
            if found:
                return template, found.groupdict()
        return None

    def shown(
        self,
        text: str,
        translate: Translate,
        *,
        names: Mapping[str, Translate] | None = None,
        depth: int = 4,
    ) -> str:
        """``text`` (made by this vocabulary, or anything else) in ``translate``'s language.

        ``names``: how to show the placeholders (by name) that hold a name the caller can render
        in the language (a period's label inside "Chốt sổ {close}"); the others are kept as written."""
        if not text or depth <= 0:
            return text
        if text in self.phrases:
            return translate(text)
        found = self.read(text)
        if found is None:
            return text
        template, fields = found
        names = names or {}
        values = {
            name: names[name](value)
            if name in names
            else self.shown(value, translate, names=names, depth=depth - 1)
            if name in PHRASES_IN
            else value
            for name, value in fields.items()
        }
        try:
            return translate(template).format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with other placeholders
            return template.format(**values)


#: Everything the engine writes for a reader: reasons, labels, breakdown lines, phrases.
ENGINE_WORDS = Vocabulary.of(REASONS.values(), LABELS.values(), BREAKDOWN.values(), phrases=PHRASES.values())
