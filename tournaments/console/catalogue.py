"""The signals of Tổ Tôm Điếm as data (docs/rules.md §14): seeded by a data migration, extended by villages.

``pattern`` is what the display plays: ``T`` tùng (a beat on the skin), ``C`` cắc (a tap on the
rim), ``R`` a long roll, ``B`` a beat of the big drum, a space a short pause. Flags are silent.
``effect`` is what the console does with the signal (a red flag opens the ván form …).
"""

from __future__ import annotations

from typing import Any

__all__ = ["COMMON", "SIGNALS", "TRUNG_QUAN"]

#: The seat number that stands for the Trung Quân in signal rows (players are 1–5).
TRUNG_QUAN = 0

_DRUM = "drum"
_BIG = "big_drum"
_FLAG = "flag"

#: (slug, label, display, meaning, kind, pattern, icon, color, effect), the most used first: the
#: console shows the first :data:`COMMON` player signals of each seat on its first screen (a tablet,
#: 1024 × 768) and the others in groups a tap away. Pass and take come every turn; phỗng and the
#: two ways to say ù every ván; hurry and the rest now and then.
_ROWS: tuple[tuple[str, str, str, str, str, str, str, str, str], ...] = (
    ("cac", "Cắc", "Không ăn", "Tôi không ăn quân này (nhường).", _DRUM, "C", "◦", "", "none"),
    ("tung", "Tùng", "Ăn", "Tôi ăn quân này.", _DRUM, "T", "●", "", "none"),
    (
        "tung-tung",
        "Tùng tùng",
        "Phỗng",
        "Phỗng: có đôi, lấy quân ở bất kỳ cửa nào.",
        _DRUM,
        "TT",
        "●●",
        "",
        "none",
    ),
    ("co-do", "Cờ đỏ", "Ù!", "Phất cờ đỏ: ù.", _FLAG, "", "⚑", "#d0202a", "u"),
    ("hoi-dai", "Hồi dài", "Ù!", "Một hồi trống dài: ù.", _DRUM, "R", "≋", "", "u"),
    (
        "cac-cac-cac",
        "Cắc cắc cắc",
        "Nhanh lên!",
        "Giục người khác đánh nhanh.",
        _DRUM,
        "CCC",
        "⋯",
        "",
        "none",
    ),
    ("co-trang", "Cờ trắng", "Chịu", "Phất cờ trắng: chịu (bỏ ván này).", _FLAG, "", "⚑", "#f4f4f4", "chiu"),
    ("tung-cac", "Tùng cắc", "Hỏi Trung Quân", "Một câu hỏi cho Trung Quân.", _DRUM, "TC", "?", "", "none"),
    (
        "tung-tung-tung",
        "Tùng tùng tùng",
        "Dậy khàn",
        "Dậy khàn: có ba quân úp, lấy quân thứ tư.",
        _DRUM,
        "TTT",
        "●●●",
        "",
        "none",
    ),
    (
        "ba-hoi-dai",
        "Ba hồi dài",
        "Ù Chi Nẩy!",
        "Ba hồi trống dài: ù Chi Nẩy.",
        _DRUM,
        "R R R",
        "≋≋≋",
        "",
        "u",
    ),
    (
        "tung-x4",
        "Tùng tùng tùng tùng",
        "Dậy thiên khai",
        "Dậy thiên khai: bốn quân giống nhau từ lúc chia.",
        _DRUM,
        "TTTT",
        "●●●●",
        "",
        "none",
    ),
    (
        "co-vang",
        "Cờ vàng",
        "Bất thực",
        "Phất cờ vàng: xin làng một bất thực (thay cho chén úp).",
        _FLAG,
        "",
        "⚑",
        "#f2c500",
        "bat_thuc",
    ),
    (
        "tung-tung-cac",
        "Tùng tùng cắc",
        "Ăn hai đánh một, trả chén",
        "Bất thực: ăn hai đánh một, trả chén cho làng.",
        _DRUM,
        "TTC",
        "●●◦",
        "",
        "tra_chen",
    ),
    (
        "tung-tung-tung-cac",
        "Tùng tùng tùng cắc",
        "Ăn cả, trả chén",
        "Bất thực: ăn cả, trả chén cho làng.",
        _DRUM,
        "TTTC",
        "●●●◦",
        "",
        "tra_chen",
    ),
    (
        "khai-hoi",
        "Khai hội",
        "Khai hội",
        "Trống cái khai hội: mở đầu cuộc chơi.",
        _BIG,
        "B B B",
        "◉",
        "",
        "none",
    ),
    (
        "trong-nhac",
        "Trống nhắc",
        "Trống nhắc",
        "Trống cái nhắc lại hiệu của một người, hoặc báo tin chung.",
        _BIG,
        "B",
        "◉",
        "",
        "none",
    ),
)

#: How many of a seat's signals (the first, in the catalogue's order) the console shows on its
#: first screen; the others are grouped behind "Thêm hiệu". A village reorders its signals in the
#: admin (``order``).
COMMON = 5

_FIELDS = ("slug", "label", "display", "meaning", "kind", "pattern", "icon", "color", "effect")

#: Every seeded signal as a dict of Signal fields, with its order.
SIGNALS: tuple[dict[str, Any], ...] = tuple(
    {**dict(zip(_FIELDS, row, strict=True)), "order": 10 * (i + 1)} for i, row in enumerate(_ROWS)
)
