"""Signatures of Tổ Tôm arrangements: what the search remembers about a set of cards.

A phu's signature is ``lưng << 8 | index``; an arrangement's *cước index* is
``tôm phu + 5 × lèo phu + 25 × (the four Ông Cụ in a trùng tứ)`` (a larger index is a more
valuable reading). A *mask* has bit ``LEVEL_BITS × level + index`` set for every reachable
(lưng level, index); a *need* says what :meth:`ToTomSearch.find` must still reach.
"""

from __future__ import annotations

from collections.abc import Iterator

from scoring.engine.cards import CARD_BY_CODE
from scoring.engine.checker.phu import PHU_CATALOGUE, LungSlug, Phu

__all__ = [
    "LEVEL_BITS",
    "LEVEL_MASK",
    "PHU_INDEX",
    "mask_bits",
    "need_after",
    "need_code",
    "sig_index",
    "split_index",
    "tt_sig",
]

#: Bits per lưng level in a signature mask (index = tôm + 5·lèo + 25·Kính-Tứ-Cố < 50).
LEVEL_BITS = 50
LEVEL_MASK = (1 << LEVEL_BITS) - 1
_OC = CARD_BY_CODE["oc"].index


def tt_sig(phu: Phu) -> int:
    """Signature of one phu: its lưng count ``<< 8`` plus its cước index (see :func:`sig_index`)."""
    index = 0
    if phu.base_lung is LungSlug.TOM:
        index += 1
    if phu.base_lung is LungSlug.LEO:
        index += 5
    if phu.copies(_OC) == 4:
        index += 25
    return (len(phu.lung) << 8) | index


def sig_index(tom: int, leo: int, ktc: bool) -> int:
    """Cước index of an arrangement: Tôm phu + 5 × Lèo phu + 25 × (Ông Cụ trùng tứ).

    A larger index is a more valuable arrangement (Kính Tứ Cố, then Lèo, then Tôm).
    """
    return tom + 5 * leo + 25 * int(ktc)


def split_index(index: int) -> tuple[int, int, bool]:
    """(Tôm phu, Lèo phu, Ông Cụ trùng tứ) of a cước index."""
    return index % 5, (index // 5) % 5, index >= 25


def need_code(lung: int, tom: bool, leo: int, ktc: bool) -> int:
    """What :meth:`ToTomSearch.find` must reach: lưng (bits 0–1), a Tôm (bit 2), Lèo (3–5), Kính Tứ Cố (6)."""
    return lung | (int(tom) << 2) | (leo << 3) | (int(ktc) << 6)


def need_after(need: int, psig: int) -> int:
    """What is left of ``need`` once a phu of signature ``psig`` is laid."""
    lung, (tom, leo, ktc) = psig >> 8, split_index(psig & 255)
    left_lung = max((need & 3) - lung, 0)
    left_tom = (need >> 2) & 1 and not tom
    left_leo = max(((need >> 3) & 7) - leo, 0)
    left_ktc = (need >> 6) & 1 and not ktc
    return need_code(left_lung, bool(left_tom), left_leo, bool(left_ktc))


#: Cước index of each catalogue phu, by catalogue id.
PHU_INDEX: tuple[int, ...] = tuple(tt_sig(p) & 255 for p in PHU_CATALOGUE)


def mask_bits(mask: int) -> Iterator[int]:
    """The set bits of a mask, highest first."""
    while mask:
        top = mask.bit_length() - 1
        yield top
        mask ^= 1 << top
