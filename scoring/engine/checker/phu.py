"""The phu (melds) of Tổ Tôm and the catalogue the arrangement search walks (docs/rules.md §4).

A hand is held as a *packed count*: one int with 4 bits per card kind (``count << 4 * POS[kind]``).
Each field holds 0..4, so setting bit 3 of every field (:data:`GUARD`) and subtracting a phu's
packed count leaves every guard bit set exactly when the hand holds the phu's cards.

Fields are laid out rank-major from rank 2 (2v 2m 2s 3v … 9s), then the six yêu (see
:data:`POS`). The catalogue lists every phu once, grouped in *families* (all the phu built on the
same kinds) and keyed by the lowest field they use: the search always covers the lowest card
left, so only the phu whose lowest field is that card's need trying.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import chain, product

from scoring.engine.cards import CARD_BY_CODE, CARDS, Card

__all__ = [
    "GUARD",
    "ONE",
    "Option",
    "Steps",
    "LungSlug",
    "Phu",
    "PhuShape",
    "compile_steps",
    "families_holding",
    "find_phu",
    "show_arrangement",
    "isolated_kinds",
    "lung_families",
    "PHU_CATALOGUE",
    "pack",
]

N_KINDS = len(CARDS)


def _position(card: Card) -> int:
    # Rank-major from rank 2 (2v 2m 2s 3v … 9s), then the six yêu (1v 1m 1s cc tt oc): a bí is
    # three neighbours and a run reaches at most two ranks ahead, so the search's frontier of
    # half-used kinds stays small; yêu, which never strand, come last and end as a cheap tail.
    if card.rank is None:
        return card.index
    if card.rank == 1:
        return 24 + card.index // 9
    return (card.rank - 2) * 3 + card.index // 9


#: ``POS[kind]``: the field of kind ``kind`` in a packed count; ``KIND_AT`` is its inverse.
POS: tuple[int, ...] = tuple(_position(c) for c in CARDS)
KIND_AT: tuple[int, ...] = tuple(sorted(range(N_KINDS), key=POS.__getitem__))
#: ``ONE[i]`` is one copy of kind ``i`` in a packed count.
ONE: tuple[int, ...] = tuple(1 << (4 * POS[i]) for i in range(N_KINDS))
#: Bit 3 of every 4-bit field.
GUARD: int = sum(8 << (4 * i) for i in range(N_KINDS))
#: The fields of the 24 non-yêu kinds (a packed count without them holds only yêu).
NON_YEU: int = sum(15 << (4 * POS[c.index]) for c in CARDS if not c.is_yeu)


def pack(counts: Sequence[int]) -> int:
    """Packed count of a 30-int count vector (each count 0..4), indexed by card kind."""
    return sum(c * ONE[i] for i, c in enumerate(counts) if c)


class LungSlug(StrEnum):
    """The nine lưng (docs/rules.md §4)."""

    TOM = "tom"
    LEO = "leo"
    SUON = "suon"
    YEU_DO_DON = "yeu_do_don"
    YEU_DO_KEP = "yeu_do_kep"
    YEU_DEN_DON = "yeu_den_don"
    YEU_DEN_KEP = "yeu_den_kep"
    TRUNG_TAM = "trung_tam"
    TRUNG_TU = "trung_tu"

    @property
    def name_vi(self) -> str:
        """Vietnamese name of the lưng."""
        return _LUNG_NAMES[self]


_LUNG_NAMES = {
    LungSlug.TOM: "Tôm",
    LungSlug.LEO: "Lèo",
    LungSlug.SUON: "Sườn",
    LungSlug.YEU_DO_DON: "Yêu Đỏ Đơn",
    LungSlug.YEU_DO_KEP: "Yêu Đỏ Kép",
    LungSlug.YEU_DEN_DON: "Yêu Đen Đơn",
    LungSlug.YEU_DEN_KEP: "Yêu Đen Kép",
    LungSlug.TRUNG_TAM: "Trùng Tam",
    LungSlug.TRUNG_TU: "Trùng Tứ",
}

#: The seven lưng made of three different kinds, in display order, and whether they are
#: *bí-shaped* (a card standing in for the Văn of a bí: Bí Tôm ``7v 3m 3m 3s 3s`` is a phu).
LUNG_TRIPLES: tuple[tuple[LungSlug, tuple[str, str, str], bool], ...] = (
    (LungSlug.TOM, ("7v", "3m", "3s"), True),
    (LungSlug.LEO, ("cc", "9m", "8s"), False),
    (LungSlug.SUON, ("8v", "2m", "2s"), True),
    (LungSlug.YEU_DO_DON, ("tt", "9m", "9s"), True),
    (LungSlug.YEU_DO_KEP, ("tt", "oc", "9s"), False),
    (LungSlug.YEU_DEN_DON, ("1v", "2v", "3v"), False),
    (LungSlug.YEU_DEN_KEP, ("9v", "1m", "1s"), True),
)


class PhuShape(StrEnum):
    """The kinds of phu."""

    YEU = "yeu"  #: a single yêu card
    DOC = "doc"  #: 3+ consecutive ranks of one suit
    BI = "bi"  #: 3+ cards of one rank covering the three suits
    TRUNG = "trung"  #: 3 or 4 identical cards (trùng tam, trùng tứ)
    LUNG = "lung"  #: one of the seven lưng triples, possibly bí-extended or ghép with trùng


@dataclass(frozen=True, slots=True)
class Phu:
    """One phu: which cards (kind index, copies) in display order, and the lưng it carries."""

    shape: PhuShape
    counts: tuple[tuple[int, int], ...]
    lung: tuple[LungSlug, ...]
    #: For :attr:`PhuShape.LUNG`, the lưng triple it is built on.
    base_lung: LungSlug | None = None

    @property
    def size(self) -> int:
        """Number of cards."""
        return sum(n for _, n in self.counts)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, in display order."""
        return tuple(CARDS[i] for i, n in self.counts for _ in range(n))

    def codes(self) -> list[str]:
        """The card codes, in display order."""
        return [CARDS[i].code for i, n in self.counts for _ in range(n)]

    def copies(self, index: int) -> int:
        """How many cards of kind ``index`` the phu holds."""
        return sum(n for i, n in self.counts if i == index)

    @property
    def packed(self) -> int:
        """The phu as a packed count."""
        return sum(n * ONE[i] for i, n in self.counts)


def _trung(n: int) -> tuple[LungSlug, ...]:
    return (LungSlug.TRUNG_TAM,) if n == 3 else (LungSlug.TRUNG_TU,) if n == 4 else ()


@dataclass(frozen=True, slots=True)
class _FamilySpec:
    kinds: tuple[int, ...]
    options: tuple[Phu, ...]


def _family(
    shape: PhuShape,
    kinds: tuple[int, ...],
    mults: Iterable[tuple[int, ...]],
    base_lung: LungSlug | None = None,
) -> _FamilySpec:
    options = []
    for combo in mults:
        lung: tuple[LungSlug, ...] = (base_lung,) if base_lung else ()
        for n in combo:
            lung += _trung(n)
        options.append(Phu(shape, tuple(zip(kinds, combo, strict=True)), lung, base_lung))
    return _FamilySpec(kinds, tuple(options))


def _idx(code: str) -> int:
    return CARD_BY_CODE[code].index


def _build_specs() -> tuple[_FamilySpec, ...]:
    specs: list[_FamilySpec] = []
    for card in CARDS:
        if card.is_yeu:
            specs.append(_family(PhuShape.YEU, (card.index,), [(1,)]))
        specs.append(_family(PhuShape.TRUNG, (card.index,), [(3,), (4,)]))
    for suit in range(3):
        for start in range(7):
            runs: list[Phu] = []
            for length in range(3, 10 - start):
                kinds = tuple(suit * 9 + start + k for k in range(length))
                if kinds == (0, 1, 2):
                    continue  # 1v 2v 3v is always read as the lưng Yêu Đen Đơn
                runs.append(Phu(PhuShape.DOC, tuple((k, 1) for k in kinds), ()))
            # a chain: runs from one start by increasing length (the search stops at the first gap)
            specs.append(_FamilySpec(tuple(sorted({k for r in runs for k, _ in r.counts})), tuple(runs)))
    all_counts = list(product(range(1, 5), repeat=3))
    for rank in range(9):
        specs.append(_family(PhuShape.BI, (rank, 9 + rank, 18 + rank), all_counts))
    ghep_counts = list(product((1, 3, 4), repeat=3))
    for slug, codes, bi_shaped in LUNG_TRIPLES:
        kinds = tuple(_idx(c) for c in codes)
        specs.append(_family(PhuShape.LUNG, kinds, all_counts if bi_shaped else ghep_counts, slug))
    return tuple(specs)


_SPECS = _build_specs()
#: Every phu the search knows, one entry each.
PHU_CATALOGUE: tuple[Phu, ...] = tuple(p for spec in _SPECS for p in spec.options)
_PHU_ID = {p: i for i, p in enumerate(PHU_CATALOGUE)}
#: Card codes of each catalogue phu (display order), by catalogue id.
PHU_CODES: tuple[tuple[str, ...], ...] = tuple(tuple(p.codes()) for p in PHU_CATALOGUE)
#: Lưng slugs of each catalogue phu, by catalogue id.
PHU_LUNG: tuple[tuple[str, ...], ...] = tuple(tuple(str(s) for s in p.lung) for p in PHU_CATALOGUE)


_NO_LUNG: tuple[bool, ...] = tuple(not lung for lung in PHU_LUNG)


def show_arrangement(ids: Sequence[int]) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Codes of an arrangement (phu carrying lưng first) and its lưng slugs, from catalogue ids."""
    ordered = sorted(ids, key=_NO_LUNG.__getitem__)
    codes = tuple(map(PHU_CODES.__getitem__, ordered))
    return codes, tuple(chain.from_iterable(map(PHU_LUNG.__getitem__, ordered)))


_BY_CONTENT = {(p.shape, p.base_lung, frozenset(p.counts)): p for p in PHU_CATALOGUE}


def find_phu(shape: PhuShape, counts: dict[int, int], base_lung: LungSlug | None = None) -> Phu | None:
    """The catalogue phu of this shape holding exactly these cards (kind index → copies)."""
    return _BY_CONTENT.get((shape, base_lung, frozenset(counts.items())))


def lung_families(kind: int) -> list[tuple[LungSlug, tuple[int, int, int], bool]]:
    """The lưng triples using card kind ``kind``: (slug, kinds, bí-shaped)."""
    out = []
    for slug, codes, bi_shaped in LUNG_TRIPLES:
        kinds = (_idx(codes[0]), _idx(codes[1]), _idx(codes[2]))
        if kind in kinds:
            out.append((slug, kinds, bi_shaped))
    return out


#: One option: (packed count, mode signature, catalogue id).
Option = tuple[int, int, int]
#: A three-kind family: its kinds' bit shifts and its options by count key ``c0 + 5*c1 + 25*c2``.
Triple = tuple[int, int, int, tuple[tuple[Option, ...], ...]]


@dataclass(frozen=True, slots=True)
class Steps:
    """The phu to try when the lowest card left sits at one field of the packed count."""

    #: Bit shift of the field.
    shift: int
    #: 15 (the field alone) or 4095 (the field and the next two: a bí's three suits).
    mask: int
    #: By ``(state >> shift) & mask``: phu of this kind alone (yêu single, trùng tam, trùng tứ)
    #: and the bí of its rank when the field is a Văn (its Vạn and Sách are the next fields).
    local: tuple[tuple[Option, ...], ...]
    #: Chains of runs holding this kind as their lowest field, each by increasing length: stop
    #: a chain at the first run the hand lacks (a run from rank 1 sits at its Nhị's field).
    #: Local and far options are listed largest first.
    chains: tuple[tuple[Option, ...], ...]
    #: Lưng families whose lowest field is this one (their other kinds sit further on).
    far: tuple[Triple, ...]


def _option(phu: Phu, sig: Callable[[Phu], int]) -> Option:
    return phu.packed, sig(phu), _PHU_ID[phu]


def _triple(spec: _FamilySpec, sig: Callable[[Phu], int]) -> Triple:
    table: list[list[Option]] = [[] for _ in range(125)]
    for phu in spec.options:
        option = _option(phu, sig)
        n0, n1, n2 = (n for _, n in phu.counts)
        for c0, c1, c2 in product(range(n0, 5), range(n1, 5), range(n2, 5)):
            table[c0 + 5 * c1 + 25 * c2].append(option)
    s0, s1, s2 = (4 * POS[k] for k in spec.kinds)
    return s0, s1, s2, tuple(_largest_first(t) for t in table)


def _largest_first(options: Iterable[Option]) -> tuple[Option, ...]:
    # Trying the largest phu first strands fewer cards: the first-found search backtracks less.
    return tuple(sorted(options, key=lambda o: -PHU_CATALOGUE[o[2]].size))


def _local_table(
    field: int, alone: list[list[Option]], local: list[Triple]
) -> tuple[tuple[Option, ...], ...]:
    """Options by the counts of this field and the next two (a 12-bit key)."""
    if not local:
        return tuple(_largest_first(a) for a in alone)
    shared: dict[tuple[Option, ...], tuple[Option, ...]] = {}
    table = []
    for key in range(4096):
        digits = [(key >> (4 * j)) & 15 for j in range(3)]
        opts: list[Option] = []
        if max(digits) <= 4:
            opts += alone[digits[0]]
            for s0, s1, s2, fam in local:
                c = [digits[(sh >> 2) - field] for sh in (s0, s1, s2)]
                opts += fam[c[0] + 5 * c[1] + 25 * c[2]]
        key_opts = tuple(opts)
        if key_opts not in shared:
            shared[key_opts] = _largest_first(key_opts)
        table.append(shared[key_opts])
    return tuple(table)


def compile_steps(sig: Callable[[Phu], int]) -> tuple[Steps, ...]:
    """The catalogue for one scoring mode, by lowest field; options carry ``sig(phu)``."""
    alone: list[list[list[Option]]] = [[[] for _ in range(5)] for _ in range(N_KINDS)]
    chains: list[list[tuple[Option, ...]]] = [[] for _ in range(N_KINDS)]
    triples: list[list[Triple]] = [[] for _ in range(N_KINDS)]
    for spec in _SPECS:
        low = min(POS[k] for k in spec.kinds)
        if len(spec.kinds) == 1:
            for phu in spec.options:
                for have in range(phu.size, 5):
                    alone[low][have].append(_option(phu, sig))
        elif spec.options[0].shape is PhuShape.DOC:
            chains[low].append(tuple(_option(p, sig) for p in spec.options))
        else:
            triples[low].append(_triple(spec, sig))
    steps = []
    for field in range(N_KINDS):
        local = [t for t in triples[field] if all(field <= sh >> 2 <= field + 2 for sh in t[:3])]
        far = tuple(t for t in triples[field] if t not in local)
        mask = 4095 if local else 15
        steps.append(
            Steps(4 * field, mask, _local_table(field, alone[field], local), tuple(chains[field]), far)
        )
    return tuple(steps)


def families_holding(sig: Callable[[Phu], int]) -> tuple[tuple[tuple[int, tuple[Option, ...]], ...], ...]:
    """For each kind: the families of phu holding it, as (smallest packed count, options)."""
    out: list[list[tuple[int, tuple[Option, ...]]]] = [[] for _ in range(N_KINDS)]
    for spec in _SPECS:
        for kind in spec.kinds:
            holding = tuple(_option(p, sig) for p in spec.options if p.copies(kind))
            if holding:
                out[kind].append((min(o[0] for o in holding), holding))
    return tuple(tuple(fams) for fams in out)


def _fields(kinds: Iterable[int]) -> int:
    return sum(1 << (4 * POS[k]) for k in kinds)


_LOW_BITS = sum(1 << (4 * p) for p in range(N_KINDS))
_YEU_FIELDS = _fields(c.index for c in CARDS if c.is_yeu)
_VAN_FIELDS = _fields(c.index for c in CARDS if c.suit.value == "v")
_RUN_STARTS = _fields(c.index for c in CARDS if c.rank is not None and 2 <= c.rank <= 7)
# Lưng triples, and the runs from rank 1 (not spaced like the others in the fields).
_LUNG_FIELDS = tuple(_fields(_idx(code) for code in codes) for _, codes, _ in LUNG_TRIPLES) + tuple(
    _fields(_idx(f"{rank}{suit}") for rank in (1, 2, 3)) for suit in "ms"
)
_NEXT_RANK = 12  # bits from a suited kind to the same suit one rank up (rank-major fields)


def isolated_kinds(state: int) -> list[int]:
    """Kinds of the hand that fit no phu at all, whatever the rest (sure junk).

    Bit-parallel over the fields: a card is coverable when it is a yêu, has 3+ copies, has the
    two other suits of its rank, sits in a 3-run of its suit, or completes a lưng triple.
    """
    present = (state | (state >> 1) | (state >> 2)) & _LOW_BITS
    covered = ((state & (state >> 1)) | (state >> 2)) & _LOW_BITS | _YEU_FIELDS
    runs = present & (present >> _NEXT_RANK) & (present >> (2 * _NEXT_RANK)) & _RUN_STARTS
    covered |= runs | (runs << _NEXT_RANK) | (runs << (2 * _NEXT_RANK))
    bi = present & (present >> 4) & (present >> 8) & _VAN_FIELDS
    covered |= bi | (bi << 4) | (bi << 8)
    rest = present & ~covered
    if rest:
        for fields in _LUNG_FIELDS:
            if present & fields == fields:
                rest &= ~fields
    found: list[int] = []
    while rest:
        low = rest & -rest
        found.append(KIND_AT[(low.bit_length() - 1) >> 2])
        rest ^= low
    return sorted(found)
