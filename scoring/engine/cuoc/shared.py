"""Cước found in several games (one catalogue entry each, listing every game)."""

from __future__ import annotations

from scoring.engine.cuoc.base import TO_TOM_GAMES, Cuoc, Derivability
from scoring.engine.cuoc.needs import needs
from scoring.engine.frozen import FrozenMap
from scoring.engine.games import GameSlug

_TT_CHAN = TO_TOM_GAMES | {GameSlug.CHAN}

SUONG = Cuoc(
    "suong",
    "Suông",
    TO_TOM_GAMES | {GameSlug.TAI_BAN},
    Derivability.CARDS,
    "Ù thường, không có cước nào khác (Tài Bàn: 9–18 lưng, có khàn lúc chia).",
    needs_in=FrozenMap({GameSlug.TAI_BAN: needs(lung=(9, 18), khan=True)}),
)
THONG = Cuoc(
    "thong",
    "Thông",
    _TT_CHAN,
    Derivability.HISTORY,
    "Thắng hai ván liên tiếp (Chắn: từ hai ván trở lên).",
    streak=True,
)
TOM = Cuoc(
    "tom",
    "Tôm",
    _TT_CHAN,
    Derivability.CARDS,
    "Bài có lưng Tôm: Thất Văn, Tam Vạn, Tam Sách.",
    needs=needs(each={"7v": 1, "3m": 1, "3s": 1}, times=None),
)
LEO = Cuoc(
    "leo",
    "Lèo",
    _TT_CHAN,
    Derivability.CARDS,
    "Bài có lưng Lèo: Chi Chi, Cửu Vạn, Bát Sách (mỗi Lèo tính một lần).",
    needs=needs(each={"cc": 1, "9m": 1, "8s": 1}, times=None),
)
BACH_THU = Cuoc(
    "bach_thu",
    "Bạch Thủ",
    _TT_CHAN,
    Derivability.WAIT,
    "Chờ ù một tiếng duy nhất, bằng phỗng (Chắn: 5 chắn chờ thành 6 chắn).",
    needs_in=FrozenMap({GameSlug.CHAN: needs(chan=(6, 6))}),
)
THIEN_U = Cuoc(
    "thien_u",
    "Thiên Ù",
    _TT_CHAN,
    Derivability.EVENT,
    "Nhà cái ù ngay khi chia bài.",
    needs=needs(dealer=True),
)
BACH_DINH = Cuoc(
    "bach_dinh",
    "Bạch Định",
    _TT_CHAN,
    Derivability.CARDS,
    "Toàn bộ bài ù là quân đen.",
    tu_tru=True,
    needs=needs(red=(0, 0)),
)

CUOC: tuple[Cuoc, ...] = (SUONG, THONG, TOM, LEO, BACH_THU, THIEN_U, BACH_DINH)
