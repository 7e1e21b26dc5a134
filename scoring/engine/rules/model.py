"""The RuleSet: every number and behaviour a village may choose, as one frozen value."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from functools import lru_cache
from typing import Any

from scoring.engine.cuoc import CATALOGUE, Cuoc, Derivability, get_cuoc
from scoring.engine.cuoc.base import TO_TOM_GAMES
from scoring.engine.cuoc.needs import Needs
from scoring.engine.errors import N_, CuocError, RuleError
from scoring.engine.frozen import FrozenMap
from scoring.engine.games import FAMILY_TRAITS, FamilyTraits, Game, GameSlug, ScoringFamily
from scoring.engine.rules.enums import (
    BaoRegime,
    BareTriple,
    ChanGaNuoi,
    ChanGaNuoiContribution,
    GaContribution,
    GaDauHoiQuang,
    GaNgoaiKind,
    GaTrongRegime,
    KinhTuCoPolicy,
    MainCuoc,
    MainTie,
    Repeat,
)

__all__ = [
    "DEFAULT_GA_TRONG_AMOUNTS",
    "FAMILY_GAMES",
    "LATER_FIELDS",
    "TU_TRU_TIENG",
    "CuocValue",
    "CustomCuoc",
    "RuleSet",
    "wrong_family",
]

#: The games each scoring family values.
FAMILY_GAMES: Mapping[ScoringFamily, frozenset[GameSlug]] = {
    ScoringFamily.TO_TOM: TO_TOM_GAMES,
    ScoringFamily.TAI_BAN: frozenset({GameSlug.TAI_BAN}),
    ScoringFamily.CHAN: frozenset({GameSlug.CHAN}),
    ScoringFamily.PHOM: frozenset({GameSlug.PHOM}),
}


@dataclass(frozen=True, slots=True)
class CuocValue:
    """How much one cước is worth in a rule set.

    Either a fixed ``main`` value, or ``boi``: a multiple of the base (S, the plain win, in Tổ Tôm;
    the stake N in Tài Bàn). When both are set, ``main`` wins. A Tứ Trụ valued by ``boi`` under
    ``tu_tru_cong_dich`` is worth boi·S + boi·D.
    """

    #: Fixed points when this cước is the highest of the win; None = computed from ``boi``.
    main: int | None
    #: Extra dịch it adds when it accompanies a higher cước.
    dich: int
    #: Multiple of the base; None = use ``main``.
    boi: int | None = None

    def to_dict(self) -> dict[str, int | None]:
        return {"main": self.main, "dich": self.dich, "boi": self.boi}


@dataclass(frozen=True, slots=True)
class CustomCuoc:
    """A village's own cước (seed 004's Phá Thiên, Đồng Tử Hái Hoa…): known to one rule set only.

    Its value is in the rule set's ``cuoc`` table like any other; its ``needs`` say what it asks of
    the hand, so that a combination no hand could hold is refused for it too.
    """

    #: Vietnamese name shown to players.
    name: str
    #: What it needs of the winning hand.
    needs: Needs = field(default_factory=Needs)
    #: One sentence saying what it is.
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "needs": self.needs.to_dict()}

    def as_cuoc(self, slug: str, family: ScoringFamily) -> Cuoc:
        """The catalogue-shaped entry of this cước (the table only knows it: an event)."""
        return Cuoc(
            slug, self.name, FAMILY_GAMES[family], Derivability.EVENT, self.description, needs=self.needs
        )


#: The Tứ Trụ and Kính Tứ Cố of every Tổ Tôm game: the default tiếng that take gà.
TU_TRU_TIENG: tuple[str, ...] = (
    "thap_dieu",
    "kinh_cu",
    "bach_dinh",
    "chi_nay",
    "kinh_tu_co",
    "kinh_2_cu",
    "thap_nhi_dieu",
)

#: Default gà trong amounts, in dịch. Đầu hội is larger than đầu ván (seed 000 §4.1.1); every
#: other contribution is the usual 1 dịch (gà thông and gà nhái are multiplied by the settlement:
#: per dịch of the Thông/Khôi, per repeated nhái; gà quân lộ per excess card).
DEFAULT_GA_TRONG_AMOUNTS: FrozenMap[int] = FrozenMap({c.value: 1 for c in GaContribution} | {"dau_hoi": 2})

#: Default Chắn gà nuôi amounts, in points (seed 002: 1 each, Chi Chi doubles).
DEFAULT_CHAN_GA_NUOI_AMOUNTS: FrozenMap[int] = FrozenMap({c.value: 1 for c in ChanGaNuoiContribution})

#: Default tiếng that take the Chắn gà nuôi (seed 002): Chì Bạch Thủ, Chì Bạch Thủ Chi, Hoa/Nhà/Cá/Ngư.
#: An entry "a+b" means every one of those cước must be present.
DEFAULT_CHAN_GA_NUOI_TIENG: tuple[str, ...] = (
    "chi+bach_thu",
    "chi+bach_thu_chi",
    "hoa_roi_cua_phat",
    "nha_lau_xe_hoi_hoa_roi_cua_phat",
    "ca_loi_san_dinh",
    "ngu_ong_bat_ca",
)

_GA_TRONG_TABLE: Mapping[GaTrongRegime, frozenset[GaContribution]] = {
    GaTrongRegime.NONE: frozenset(),
    GaTrongRegime.CONG_NGHIEP: frozenset(GaContribution),
    GaTrongRegime.NHA: frozenset(GaContribution)
    - {
        GaContribution.DAU_HOI,
        GaContribution.DAU_VAN,
        GaContribution.NHAI,
        GaContribution.BI_DE_U,
    },
    GaTrongRegime.RUNG: frozenset(
        {GaContribution.DAU_HOI, GaContribution.U_BAO, GaContribution.DANH_U, GaContribution.THONG}
    ),
    GaTrongRegime.LANG: frozenset({GaContribution.DANH_U, GaContribution.THONG}),
}


def _tieng_matches(tieng: Iterable[str], cuoc: Iterable[str]) -> bool:
    present = set(cuoc)
    return any(set(entry.split("+")) <= present for entry in tieng)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete rule set (lệ làng). Build it with :func:`load_rules` or :meth:`from_dict`.

    Points (docs/rules.md §6): a win = main value of its highest cước + D × extra dịch of the others.
    """

    #: Slug of the preset this rule set starts from ("luat-2005").
    preset: str
    #: Vietnamese name shown to players.
    name: str
    #: Vietnamese description: where the table comes from.
    description: str
    #: Which games it values (a Tổ Tôm rule set cannot score Chắn).
    family: ScoringFamily
    #: S: points of a plain win (Suông; in Chắn, Xuông's value). Unused for points in Tài Bàn.
    suong: int
    #: D: points of one dịch (Chắn: 1, dịch are points; Tài Bàn: 0).
    dich: int
    #: Value of every cước allowed in this rule set, by slug; a cước absent here cannot be scored.
    cuoc: FrozenMap[CuocValue] = field(default_factory=FrozenMap)
    #: Whether Tứ Trụ valued by ``boi`` also carry boi dịch in their main value (boi·S + boi·D).
    tu_tru_cong_dich: bool = False
    #: Thông (a streak of 2); ``main`` None = the Khôi formula at N = 2 (S + D·(2 − khoi_main_offset)).
    #: None = streaks add nothing (Tài Bàn, Phỏm).
    thong: CuocValue | None = CuocValue(None, 1)
    #: Whether streaks of 3+ climb the Khôi ladder; False (Chắn) = any streak ≥ 2 adds ``thong``.
    has_khoi: bool = True
    #: N-Khôi main value = S + D × (N − khoi_main_offset): 1 gives luat-2005's 6 + 2(N−2).
    khoi_main_offset: int = 1
    #: N-Khôi extra dịch = N − khoi_dich_offset: 2 in luat-2005 (N−2), 1 in hoi-50 (N−1).
    khoi_dich_offset: int = 2
    #: Cước that include others: each ``chi_nay`` listed cancels one listed ``leo``.
    subsumes: FrozenMap[tuple[str, ...]] = FrozenMap({"chi_nay": ("leo",)})
    #: Kính Tứ Cố in gom: its points, or the whole pool (hết hội).
    kinh_tu_co_policy: KinhTuCoPolicy = KinhTuCoPolicy.POINTS
    #: Gom: each player's contribution at a hội's opening; None = derived (:meth:`gom_amount`).
    gom: int | None = None
    #: Gom top-up: when the pool is under this at a win, each other player adds ``gom_topup_amount``
    #: for the winner (seed 000: under 30, 20 each); None = no top-up.
    gom_topup_below: int | None = None
    #: Gom top-up amount each other player adds (points).
    gom_topup_amount: int = 20
    #: Gà ngoài: none, đơn (largest cước's dịch) or chồng (every cước's dịch).
    ga_ngoai: GaNgoaiKind = GaNgoaiKind.NONE
    #: Tiếng that earn gà ngoài ("a+b" = all of them together).
    ga_ngoai_tieng: tuple[str, ...] = TU_TRU_TIENG
    #: Gà trong regime: which contributions feed the pot (:meth:`ga_trong_applies`).
    ga_trong: GaTrongRegime = GaTrongRegime.NONE
    #: Gà trong amount of each contribution, in dịch, keyed by :class:`GaContribution` value.
    ga_trong_amounts: FrozenMap[int] = DEFAULT_GA_TRONG_AMOUNTS
    #: Tiếng whose winner takes the whole gà trong pot ("a+b" = all of them together).
    ga_trong_tieng: tuple[str, ...] = TU_TRU_TIENG
    #: Đền làng amount A for ù báo / báo đền làng; None = the plain win (S; 1·N in Tài Bàn).
    den_lang_amount: int | None = None
    #: What a báo during play costs by default (a ván may say otherwise).
    bao_regime: BaoRegime = BaoRegime.DEN_LANG
    #: Whether an ù lành làng breaks the winner's streak.
    lanh_lang_breaks_streak: bool = True
    #: Whether a player who folded (chịu) still pays a win.
    chiu_pays: bool = False
    #: Chắn: gà points a listed gà cước adds to the win ("thường là 5 điểm").
    chan_ga_points: int = 5
    #: Chắn: cước that add gà points (empty = the table does not play cước có gà).
    chan_ga_cuoc: tuple[str, ...] = ()
    #: Chắn: the cước whose main value is the fine for ù láo, xướng sai, bỏ ù ("8 đỏ 2 lèo" = 12).
    chan_fine_cuoc: str = "kinh_tu_chi"
    #: Chắn gà nuôi amount of each contribution, in points, keyed by :class:`ChanGaNuoiContribution`.
    chan_ga_nuoi_amounts: FrozenMap[int] = DEFAULT_CHAN_GA_NUOI_AMOUNTS
    #: Chắn gà nuôi: multiplier when the chíu or nhái card is Chi Chi.
    chan_ga_nuoi_chi_chi_factor: int = 2
    #: Chắn: tiếng that take the gà nuôi pot ("a+b" = all of them together).
    chan_ga_nuoi_tieng: tuple[str, ...] = DEFAULT_CHAN_GA_NUOI_TIENG
    #: Tài Bàn: the stake N (Suông 1·N, Tài Bàn 2·N, Sửu Bàn 3·N).
    stake: int = 10
    #: Phỏm: what the 2nd, 3rd, 4th pay the 1st.
    phom_rank_stakes: tuple[int, ...] = (1, 2, 3)
    #: Phỏm: what each loser pays a player who ù (default 5: one more than the usual móm/last stake).
    phom_u_stake: int = 5
    # -- fields added later (LATER_FIELDS): at their default they leave the fingerprint as it was --
    #: A village's own cước, by slug (their values are in ``cuoc``).
    custom_cuoc: FrozenMap[CustomCuoc] = field(default_factory=FrozenMap)
    #: Which cước counts at its main value: the one worth most, or the highest main value.
    main_cuoc: MainCuoc = MainCuoc.MOST_POINTS
    #: With ``main_cuoc = highest``: which of two equal main values is the main one.
    main_tie: MainTie = MainTie.MOST_POINTS
    #: A Tôm or Lèo declared several times: each counts, or once.
    tom_leo_repeat: Repeat = Repeat.EACH
    #: Gà đầu hội in đánh quăng: once before the first ván, or not at all.
    ga_dau_hoi_quang: GaDauHoiQuang = GaDauHoiQuang.ONCE
    #: Tài Bàn: three identical cards not named as a khàn count as a phỗng or as a khàn.
    tai_ban_triple: BareTriple = BareTriple.PHONG
    #: Chắn: whether the table keeps the gà nuôi pot.
    chan_ga_nuoi: ChanGaNuoi = ChanGaNuoi.NUOI
    #: Phỏm: whether a hand laid down with no phỏm and no cạ is ù khan and wins outright (seed 003:
    #: "không có phỏm và cũng không có cạ thì gọi là ù khan và thắng bài ngay lập tức"; "tùy người
    #: chơi": a village that does not play it sets False, and such a hand is móm).
    phom_u_khan: bool = True

    # -- serialisation -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field; :meth:`from_dict` reads it back unchanged."""
        out: dict[str, Any] = {}
        for f in fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, bounded: bool = True) -> RuleSet:
        """Build and validate a rule set; RuleError (Vietnamese, naming the key) if impossible.

        ``bounded=False`` reads a stored snapshot back without the input bounds (docs/bounds.md):
        history written before the bounds existed stays readable; new input is always bounded.
        """
        from scoring.engine.rules.parse import parse_rules

        return parse_rules(data, bounded=bounded)

    @property
    def fingerprint(self) -> str:
        """First 16 hex digits of the sha256 of the canonical JSON of :meth:`to_dict`.

        A field of :data:`LATER_FIELDS` holding its default is left out, so a rule set keeps the
        fingerprint it had before that field existed (stored snapshots and backups still match).
        Worked out once per rule set (a frozen value: :func:`_fingerprint`).
        """
        return _fingerprint(self)

    @property
    def traits(self) -> FamilyTraits:
        """What sets this rule set's family apart (:data:`scoring.engine.games.FAMILY_TRAITS`)."""
        return FAMILY_TRAITS[self.family]

    # -- values --------------------------------------------------------------------------------

    @property
    def base(self) -> int:
        """What ``boi`` multiplies: the stake N in Tài Bàn, else S."""
        return self.stake if self.traits.stake_per_hoi else self.suong

    @property
    def plain_cuoc(self) -> str:
        """Slug of a plain win: ``xuong`` in Chắn, ``suong`` elsewhere."""
        return "xuong" if self.family is ScoringFamily.CHAN else "suong"

    def cuoc_info(self, slug: str) -> Cuoc:
        """The cước of this slug: one of the rule set's own, else the catalogue's (case-insensitive).

        Raises CuocError naming close matches when neither knows it.
        """
        key = slug.strip().lower() if isinstance(slug, str) else slug
        custom = self.custom_cuoc.get(key) if isinstance(key, str) else None
        if custom is not None:
            return custom.as_cuoc(key, self.family)
        return get_cuoc(slug)

    def cuoc_name(self, slug: str) -> str:
        """Vietnamese name of a cước of this rule set (the slug when unknown)."""
        custom = self.custom_cuoc.get(slug)
        if custom is not None:
            return custom.name
        return CATALOGUE[slug].name if slug in CATALOGUE else slug

    def value_of(self, slug: str) -> tuple[int, int]:
        """(main value, extra dịch) of a cước; CuocError if this rule set does not value it."""
        if slug == "thong":
            return self.khoi_value(2)
        if slug == "khoi":
            raise CuocError(N_("Giá trị của Khôi tùy số ván thắng liên tiếp: hãy cho chuỗi thắng (streak)."))
        value = self.cuoc.get(slug)
        if value is None:
            raise CuocError(
                N_("Bộ luật '{preset}' ({rules}) không tính cước '{slug}' ({name})."),
                preset=self.preset,
                rules=self.name,
                slug=slug,
                name=self.cuoc_name(slug),
            )
        return self.resolve(slug, value), value.dich

    def resolve(self, slug: str, value: CuocValue) -> int:
        """The main value of ``value`` (the entry of ``slug``) under this rule set."""
        if value.main is not None:
            return value.main
        if value.boi is None:
            return self.suong + self.dich * (2 - self.khoi_main_offset)  # Thông by the ladder
        main = value.boi * self.base
        if self.tu_tru_cong_dich and slug in CATALOGUE and CATALOGUE[slug].tu_tru:
            main += value.boi * self.dich
        return main

    def streak_cuoc(self, n: int) -> str | None:
        """The streak cước of a win that is the ``n``-th in a row: None, ``thong`` or ``khoi``."""
        if n < 2 or self.thong is None:
            return None
        return "khoi" if n >= 3 and self.has_khoi else "thong"

    def khoi_value(self, n: int) -> tuple[int, int]:
        """(main value, extra dịch) of the streak cước of the ``n``-th win in a row (n ≥ 2)."""
        kind = self.streak_cuoc(n)
        if kind is None or self.thong is None:
            raise CuocError(
                N_("Bộ luật '{preset}' không tính Thông/Khôi cho chuỗi {n} ván thắng."),
                preset=self.preset,
                n=n,
            )
        if kind == "thong":
            return self.resolve("thong", self.thong), self.thong.dich
        return self.suong + self.dich * (n - self.khoi_main_offset), n - self.khoi_dich_offset

    def plain_value(self) -> int:
        """Points of a plain win (S; Xuông in Chắn; 1·N in Tài Bàn)."""
        return self.value_of(self.plain_cuoc)[0]

    def den_lang_value(self) -> int:
        """Đền làng amount A when nothing was declared: ``den_lang_amount``, else the plain win."""
        return self.den_lang_amount if self.den_lang_amount is not None else self.plain_value()

    def chan_fine_value(self) -> int:
        """Chắn fine ("8 đỏ 2 lèo"): the main value of ``chan_fine_cuoc``."""
        return self.value_of(self.chan_fine_cuoc)[0]

    # -- money ---------------------------------------------------------------------------------

    def gom_amount(self, n_players: int) -> int:
        """Each player's gom: ``gom`` if set, else ceil((2 × Chi Nẩy + D) / n)."""
        if n_players < 1:
            raise RuleError(N_("Số người chơi phải ít nhất là 1 (nhận được {n})."), n=n_players)
        if self.gom is not None:
            return self.gom
        if "chi_nay" not in self.cuoc:
            raise RuleError(
                N_("Bộ luật '{preset}' không có Chi Nẩy để tính gom: hãy đặt 'gom'."), preset=self.preset
            )
        return math.ceil((2 * self.value_of("chi_nay")[0] + self.dich) / n_players)

    def ga_trong_applies(self, contribution: GaContribution | str) -> bool:
        """Whether this contribution feeds the gà trong pot under the regime (docs/rules.md §9)."""
        return GaContribution(contribution) in _GA_TRONG_TABLE[self.ga_trong]

    def takes_ga_trong(self, cuoc: Iterable[str]) -> bool:
        """Whether a win with these cước takes the gà trong pot."""
        return self.ga_trong is not GaTrongRegime.NONE and _tieng_matches(self.ga_trong_tieng, cuoc)

    def takes_ga_ngoai(self, cuoc: Iterable[str]) -> bool:
        """Whether a win with these cước earns gà ngoài."""
        return self.ga_ngoai is not GaNgoaiKind.NONE and _tieng_matches(self.ga_ngoai_tieng, cuoc)

    def takes_chan_ga_nuoi(self, cuoc: Iterable[str]) -> bool:
        """Whether a Chắn win with these cước takes the gà nuôi pot."""
        return _tieng_matches(self.chan_ga_nuoi_tieng, cuoc)


def wrong_family(rules: RuleSet, game: Game) -> RuleError:
    """The error for a rule set of another family than the game's."""
    return RuleError(
        N_(
            "Bộ luật '{preset}' ({rules}) dành cho nhóm '{family}', không dùng được cho trò chơi "
            "'{game}' ({name})."
        ),
        preset=rules.preset,
        rules=rules.name,
        family=rules.family.value,
        game=game.slug.value,
        name=game.name_vi,
    )


@lru_cache(maxsize=256)
def _fingerprint(rules: RuleSet) -> str:
    """:attr:`RuleSet.fingerprint`: a pure function of a frozen, hashable value, so kept (each page
    that scores or keys a cache by the rules asked it again: ~80 µs of JSON and sha256 each time)."""
    data = rules.to_dict()
    for name, default in _LATER_DEFAULTS.items():
        if data.get(name) == default:
            del data[name]
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _jsonable(value: Any) -> Any:
    if isinstance(value, CuocValue | CustomCuoc):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str):
        return str(value)  # StrEnum members become plain strings
    return value


#: Fields added after rule sets were first stored; at their default they stay out of the fingerprint.
LATER_FIELDS: tuple[str, ...] = (
    "custom_cuoc",
    "main_cuoc",
    "main_tie",
    "tom_leo_repeat",
    "ga_dau_hoi_quang",
    "tai_ban_triple",
    "chan_ga_nuoi",
    "phom_u_khan",
)


def _default(name: str) -> Any:
    spec = next(f for f in fields(RuleSet) if f.name == name)
    if spec.default is MISSING and callable(spec.default_factory):
        return spec.default_factory()
    return spec.default


_LATER_DEFAULTS: Mapping[str, Any] = {name: _jsonable(_default(name)) for name in LATER_FIELDS}
