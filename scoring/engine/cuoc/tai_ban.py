"""Cước of Tài Bàn (docs/rules.md §11); Suông is shared with Tổ Tôm (see ``shared``)."""

from __future__ import annotations

from scoring.engine.cuoc.base import Cuoc, Derivability
from scoring.engine.cuoc.needs import needs
from scoring.engine.games import GameSlug

_TB = frozenset({GameSlug.TAI_BAN})

TAI_BAN = Cuoc(
    "tai_ban",
    "Tài Bàn",
    _TB,
    Derivability.HISTORY,
    "Từ 19 lưng trở lên, có khàn trong bài chia.",
    needs=needs(lung=(19, None), khan=True),
)
SUU_BAN = Cuoc(
    "suu_ban",
    "Sửu Bàn",
    _TB,
    Derivability.HISTORY,
    "Từ 9 lưng trở lên, không có khàn trong bài chia.",
    needs=needs(lung=(9, None), khan=False),
)

CUOC: tuple[Cuoc, ...] = (TAI_BAN, SUU_BAN)
