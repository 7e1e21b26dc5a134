"""Cước of Chắn only (docs/rules.md §12); Thông, Tôm, Lèo, Bạch Thủ, Thiên Ù, Bạch Định are shared."""

from __future__ import annotations

from scoring.engine.cuoc.base import Cuoc, Derivability
from scoring.engine.cuoc.needs import needs
from scoring.engine.games import GameSlug

_C = frozenset({GameSlug.CHAN})

XUONG = Cuoc("xuong", "Xuông", _C, Derivability.CARDS, "Ù thường, không có cước nào khác.")
DIA_U = Cuoc(
    "dia_u",
    "Địa Ù",
    _C,
    Derivability.EVENT,
    "Ù quân bốc nọc đầu tiên khi chưa ăn, chưa đánh gì.",
    needs=needs(dealer=False),
)
CHI = Cuoc("chi", "Chì", _C, Derivability.EVENT, "Ù quân chính mình bốc từ nọc.")
CO_THIEN_KHAI = Cuoc(
    "co_thien_khai",
    "Có Thiên Khai",
    _C,
    Derivability.HISTORY,
    "Trên tay có 4 quân giống nhau từ lúc chia.",
    needs=needs(quads=1, times=None),
)
CO_CHIU = Cuoc(
    "co_chiu",
    "Có Chíu",
    _C,
    Derivability.HISTORY,
    "Đã chíu trong ván (không phải Chíu Ù).",
    needs=needs(quads=1, times=None),
)
CO_BON = Cuoc("co_bon", "Có Bòn", _C, Derivability.HISTORY, "Đã ăn bòn: tách chắn sẵn có để ăn hai chắn.")
BACH_THU_CHI = Cuoc(
    "bach_thu_chi",
    "Bạch Thủ Chi",
    _C,
    Derivability.WAIT,
    "Ù bạch thủ quân Chi Chi.",
    needs=needs(cards={"cc": (2, None)}, chan=(6, 6)),
)
TAM_DO = Cuoc("tam_do", "Tám Đỏ", _C, Derivability.CARDS, "Bài ù có đúng 8 quân đỏ.", needs=needs(red=(8, 8)))
THAP_THANH = Cuoc(
    "thap_thanh", "Thập Thành", _C, Derivability.CARDS, "Bài ù có 10 chắn.", needs=needs(chan=(10, 10))
)
KINH_TU_CHI = Cuoc(
    "kinh_tu_chi",
    "Kính Tứ Chi",
    _C,
    Derivability.CARDS,
    "Bài ù có 4 Chi Chi và không quân đỏ nào khác.",
    needs=needs(red=(4, 4), cards={"cc": (4, 4)}),
)
HOA_ROI_CUA_PHAT = Cuoc(
    "hoa_roi_cua_phat",
    "Hoa Rơi Cửa Phật",
    _C,
    Derivability.HISTORY,
    "Dưới chiếu có Ngũ Vạn, ù Chì Bạch Thủ Nhị Vạn.",
    needs=needs(cards={"5m": (1, None), "2m": (2, None)}, chan=(6, 6)),
)
CA_LOI_SAN_DINH = Cuoc(
    "ca_loi_san_dinh",
    "Cá Lội Sân Đình",
    _C,
    Derivability.HISTORY,
    "Dưới chiếu có Ngũ Vạn, ù Chì Bạch Thủ Bát Vạn.",
    needs=needs(cards={"5m": (1, None), "8m": (2, None)}, chan=(6, 6)),
)
NGU_ONG_BAT_CA = Cuoc(
    "ngu_ong_bat_ca",
    "Ngư Ông Bắt Cá",
    _C,
    Derivability.HISTORY,
    "Trên tay có chắn Chi Chi và chắn Ngũ Sách, ù Chì Bạch Thủ Bát Vạn.",
    needs=needs(cards={"cc": (2, None), "5s": (2, None), "8m": (2, None)}, chan=(6, 6)),
)
NHA_LAU_XE_HOI_HOA_ROI_CUA_PHAT = Cuoc(
    "nha_lau_xe_hoi_hoa_roi_cua_phat",
    "Nhà Lầu Xe Hơi Hoa Rơi Cửa Phật",
    _C,
    Derivability.HISTORY,
    "Trên tay có chắn Ngũ Vạn và chắn Tứ Vạn, ù Chì Bạch Thủ Nhị Vạn.",
    needs=needs(cards={"5m": (2, None), "4m": (2, None), "2m": (2, None)}, chan=(6, 6)),
)

CUOC: tuple[Cuoc, ...] = (
    XUONG,
    DIA_U,
    CHI,
    CO_THIEN_KHAI,
    CO_CHIU,
    CO_BON,
    BACH_THU_CHI,
    TAM_DO,
    THAP_THANH,
    KINH_TU_CHI,
    HOA_ROI_CUA_PHAT,
    CA_LOI_SAN_DINH,
    NGU_ONG_BAT_CA,
    NHA_LAU_XE_HOI_HOA_ROI_CUA_PHAT,
)
