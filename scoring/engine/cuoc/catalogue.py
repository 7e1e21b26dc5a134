"""The one explicit catalogue of every cước, and look-ups into it."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from types import MappingProxyType

from scoring.engine.cuoc import chan, shared, tai_ban, to_tom
from scoring.engine.cuoc.base import Cuoc
from scoring.engine.errors import N_, CuocError, InvariantError, Msg, shown
from scoring.engine.games import Game, GameSlug, get_game

__all__ = ["CATALOGUE", "cuoc_for_game", "get_cuoc"]


def _register(*groups: tuple[Cuoc, ...]) -> Mapping[str, Cuoc]:
    table: dict[str, Cuoc] = {}
    for group in groups:
        for cuoc in group:
            if cuoc.slug in table:
                raise InvariantError(f"cước {cuoc.slug!r} registered twice")
            table[cuoc.slug] = cuoc
    return MappingProxyType(table)


#: Every cước by slug: shared ones first, then Tổ Tôm, Tài Bàn and Chắn.
CATALOGUE: Mapping[str, Cuoc] = _register(shared.CUOC, to_tom.CUOC, tai_ban.CUOC, chan.CUOC)


def get_cuoc(slug: str) -> Cuoc:
    """The cước with this slug (case-insensitive).

    Raises :class:`CuocError` naming close matches when the slug is unknown.
    """
    key = slug.strip().lower() if isinstance(slug, str) else slug
    if isinstance(key, str) and key in CATALOGUE:
        return CATALOGUE[key]
    close = difflib.get_close_matches(str(key), list(CATALOGUE), n=3, cutoff=0.6)
    hint = Msg(N_(" Có phải ý bạn là: {names}?"), names=[repr(c) for c in close]) if close else ""
    raise CuocError(
        N_("Không có cước '{slug}'.{hint}"), slug=slug if isinstance(slug, str) else shown(slug), hint=hint
    )


def cuoc_for_game(game: str | GameSlug | Game) -> tuple[Cuoc, ...]:
    """Every cước that exists in ``game``, in catalogue order (Phỏm has none)."""
    slug = get_game(game).slug
    return tuple(c for c in CATALOGUE.values() if slug in c.games)
