"""The signals of Tổ Tôm Điếm as data (docs/rules.md §14): seeded by a data migration, extended by villages.

``pattern`` is what the display plays: ``T`` tùng (a beat on the skin), ``C`` cắc (a tap on the
rim), ``R`` a long roll, ``B`` a beat of the big drum, a space a short pause. Flags are silent.
``effect`` is what the console does with the signal (a red flag opens the ván form …).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

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
    (
        "cac",
        gettext_noop("Cắc"),
        gettext_noop("Không ăn"),
        gettext_noop("Tôi không ăn quân này (nhường)."),
        _DRUM,
        "C",
        "◦",
        "",
        "none",
    ),
    (
        "tung",
        gettext_noop("Tùng"),
        gettext_noop("Ăn"),
        gettext_noop("Tôi ăn quân này."),
        _DRUM,
        "T",
        "●",
        "",
        "none",
    ),
    (
        "tung-tung",
        gettext_noop("Tùng tùng"),
        gettext_noop("Phỗng"),
        gettext_noop("Phỗng: có đôi, lấy quân ở bất kỳ cửa nào."),
        _DRUM,
        "TT",
        "●●",
        "",
        "none",
    ),
    (
        "co-do",
        gettext_noop("Cờ đỏ"),
        gettext_noop("Ù!"),
        gettext_noop("Phất cờ đỏ: ù."),
        _FLAG,
        "",
        "⚑",
        "#d0202a",
        "u",
    ),
    (
        "hoi-dai",
        gettext_noop("Hồi dài"),
        gettext_noop("Ù!"),
        gettext_noop("Một hồi trống dài: ù."),
        _DRUM,
        "R",
        "≋",
        "",
        "u",
    ),
    (
        "cac-cac-cac",
        gettext_noop("Cắc cắc cắc"),
        gettext_noop("Nhanh lên!"),
        gettext_noop("Giục người khác đánh nhanh."),
        _DRUM,
        "CCC",
        "⋯",
        "",
        "none",
    ),
    (
        "co-trang",
        gettext_noop("Cờ trắng"),
        gettext_noop("Chịu"),
        gettext_noop("Phất cờ trắng: chịu (bỏ ván này)."),
        _FLAG,
        "",
        "⚑",
        "#f4f4f4",
        "chiu",
    ),
    (
        "tung-cac",
        gettext_noop("Tùng cắc"),
        gettext_noop("Hỏi Trung Quân"),
        gettext_noop("Một câu hỏi cho Trung Quân."),
        _DRUM,
        "TC",
        "?",
        "",
        "none",
    ),
    (
        "tung-tung-tung",
        gettext_noop("Tùng tùng tùng"),
        gettext_noop("Dậy khàn"),
        gettext_noop("Dậy khàn: có ba quân úp, lấy quân thứ tư."),
        _DRUM,
        "TTT",
        "●●●",
        "",
        "none",
    ),
    (
        "ba-hoi-dai",
        gettext_noop("Ba hồi dài"),
        gettext_noop("Ù Chi Nẩy!"),
        gettext_noop("Ba hồi trống dài: ù Chi Nẩy."),
        _DRUM,
        "R R R",
        "≋≋≋",
        "",
        "u",
    ),
    (
        "tung-x4",
        gettext_noop("Tùng tùng tùng tùng"),
        gettext_noop("Dậy thiên khai"),
        gettext_noop("Dậy thiên khai: bốn quân giống nhau từ lúc chia."),
        _DRUM,
        "TTTT",
        "●●●●",
        "",
        "none",
    ),
    (
        "co-vang",
        gettext_noop("Cờ vàng"),
        gettext_noop("Bất thực"),
        gettext_noop("Phất cờ vàng: xin làng một bất thực (thay cho chén úp)."),
        _FLAG,
        "",
        "⚑",
        "#f2c500",
        "bat_thuc",
    ),
    (
        "tung-tung-cac",
        gettext_noop("Tùng tùng cắc"),
        gettext_noop("Ăn hai đánh một, trả chén"),
        gettext_noop("Bất thực: ăn hai đánh một, trả chén cho làng."),
        _DRUM,
        "TTC",
        "●●◦",
        "",
        "tra_chen",
    ),
    (
        "tung-tung-tung-cac",
        gettext_noop("Tùng tùng tùng cắc"),
        gettext_noop("Ăn cả, trả chén"),
        gettext_noop("Bất thực: ăn cả, trả chén cho làng."),
        _DRUM,
        "TTTC",
        "●●●◦",
        "",
        "tra_chen",
    ),
    (
        "khai-hoi",
        gettext_noop("Khai hội"),
        gettext_noop("Khai hội"),
        gettext_noop("Trống cái khai hội: mở đầu cuộc chơi."),
        _BIG,
        "B B B",
        "◉",
        "",
        "none",
    ),
    (
        "trong-nhac",
        gettext_noop("Trống nhắc"),
        gettext_noop("Trống nhắc"),
        gettext_noop("Trống cái nhắc lại hiệu của một người, hoặc báo tin chung."),
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
