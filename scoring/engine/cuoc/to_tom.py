"""Cước of the Tổ Tôm games only (docs/rules.md §5): one constant per cước."""

from __future__ import annotations

from scoring.engine.cuoc.base import TO_TOM_GAMES, Cuoc, Derivability
from scoring.engine.cuoc.needs import needs
from scoring.engine.games import GameSlug

_TT5 = frozenset({GameSlug.TO_TOM_5, GameSlug.TO_TOM_DIEM})
_TT4 = frozenset({GameSlug.TO_TOM_4})

KHOI = Cuoc(
    "khoi",
    "Khôi",
    TO_TOM_GAMES,
    Derivability.HISTORY,
    "Thắng ván thứ N liên tiếp (N ≥ 3): Tam Khôi, Tứ Khôi…",
    streak=True,
)
XUYEN_NAM_GIAN = Cuoc(
    "xuyen_nam_gian",
    "Xuyên Năm Gian",
    TO_TOM_GAMES,
    Derivability.WAIT,
    "Quân ù lấp chỗ trống giữa 4 quân rác thành dãy dọc 5 quân (3v 4v _ 6v 7v).",
)
XUYEN_BI_TU = Cuoc(
    "xuyen_bi_tu",
    "Xuyên Bí Tư",
    TO_TOM_GAMES,
    Derivability.WAIT,
    "Quân ù ghép với 4 quân rác (hai đôi cùng hàng số ở hai hàng chất kia) thành phu bí 5 quân.",
)
XUYEN = Cuoc(
    "xuyen",
    "Xuyên",
    TO_TOM_GAMES,
    Derivability.WAIT,
    "Quân ù lấp chỗ trống của dãy dọc 3 quân (3v _ 5v); chỉ có trong một số bộ luật (Hội 50).",
)
VONG = Cuoc(
    "vong",
    "Vọng",
    TO_TOM_GAMES,
    Derivability.EVENT,
    "Ù quân lộ ra khi nhà khác dậy thiên khai ở lượt bốc nọc đầu tiên.",
)
THAP_DIEU = Cuoc(
    "thap_dieu",
    "Thập Điều",
    _TT5,
    Derivability.CARDS,
    "Đúng 10 quân đỏ trong 21 quân (Thập Hồng, Mười Đỏ).",
    tu_tru=True,
    needs=needs(red=(10, 10)),
)
KINH_CU = Cuoc(
    "kinh_cu",
    "Kính Cụ",
    _TT5,
    Derivability.CARDS,
    "20 quân đen và 1 Ông Cụ.",
    tu_tru=True,
    needs=needs(red=(1, 1), cards={"oc": (1, 1)}),
)
CHI_NAY = Cuoc(
    "chi_nay",
    "Chi Nẩy",
    TO_TOM_GAMES,
    Derivability.HISTORY,
    "Chỉ chờ Chi Chi, giữ Cửu Vạn và Bát Sách rác từ lúc chia, không thể ù cách khác.",
    tu_tru=True,
    needs=needs(each={"cc": 1, "9m": 1, "8s": 1}),
)
KINH_TU_CO = Cuoc(
    "kinh_tu_co",
    "Kính Tứ Cố",
    TO_TOM_GAMES,
    Derivability.CARDS,
    "17 quân đen và 4 Ông Cụ (thành trùng tứ).",
    tu_tru=True,
    needs=needs(red=(4, 4), cards={"oc": (4, 4)}),
)
KINH_2_CU = Cuoc(
    "kinh_2_cu",
    "Kính 2 Cụ",
    _TT4,
    Derivability.CARDS,
    "Bí Tứ: 23 quân đen và 2 Ông Cụ (25 quân).",
    tu_tru=True,
    needs=needs(red=(2, 2), cards={"oc": (2, 2)}),
)
THAP_NHI_DIEU = Cuoc(
    "thap_nhi_dieu",
    "Thập Nhị Điều",
    _TT4,
    Derivability.CARDS,
    "Bí Tứ: 12 quân đỏ và 13 quân đen.",
    tu_tru=True,
    needs=needs(red=(12, 12)),
)

CUOC: tuple[Cuoc, ...] = (
    KHOI,
    XUYEN_NAM_GIAN,
    XUYEN_BI_TU,
    XUYEN,
    VONG,
    THAP_DIEU,
    KINH_CU,
    CHI_NAY,
    KINH_TU_CO,
    KINH_2_CU,
    THAP_NHI_DIEU,
)
