"""The catalogue of cước (kinds of win) of every game, one small unit per cước.

Each cước is a :class:`Cuoc` constant in the module of its game family (``shared``, ``to_tom``,
``tai_ban``, ``chan``), registered once in :data:`CATALOGUE` (``catalogue.py``). Values live in rule
sets, never here.
"""

from __future__ import annotations

from scoring.engine.cuoc.base import TO_TOM_GAMES, Cuoc, Derivability, khoi_name
from scoring.engine.cuoc.catalogue import CATALOGUE, cuoc_for_game, get_cuoc

__all__ = ["CATALOGUE", "TO_TOM_GAMES", "Cuoc", "Derivability", "cuoc_for_game", "get_cuoc", "khoi_name"]
