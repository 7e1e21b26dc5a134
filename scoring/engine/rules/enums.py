"""The closed choices of a rule set (RULES.md §8–§10, §12)."""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "BaoRegime",
    "ChanGaNuoiContribution",
    "GaContribution",
    "GaNgoaiKind",
    "GaTrongRegime",
    "KinhTuCoPolicy",
]


class KinhTuCoPolicy(StrEnum):
    """What a Kính Tứ Cố win takes in đánh gom."""

    POINTS = "points"  #: its points, like any other win
    HET_HOI = "het_hoi"  #: the whole pool: the hội ends (hết hội)


class GaNgoaiKind(StrEnum):
    """Gà ngoài: extra dịch the winner of a listed tiếng receives (RULES.md §9)."""

    NONE = "none"  #: no gà ngoài
    DON = "don"  #: gà ngoài đơn: the dịch of the largest cước only
    CHONG = "chong"  #: gà ngoài chồng (gà cõng): the dịch of every cước


class GaTrongRegime(StrEnum):
    """Gà trong: which contributions feed the pot (RULES.md §9)."""

    NONE = "none"  #: no gà trong
    LANG = "lang"  #: gà làng, the default without agreement: đánh ù and thông
    CONG_NGHIEP = "cong_nghiep"  #: gà công nghiệp: every contribution
    NHA = "nha"  #: gà nhà: faults only (no đầu hội, đầu ván, nhái, bị đè ù)
    RUNG = "rung"  #: gà rừng: đầu hội and the heavy faults (ù báo, đánh ù, thông)


class GaContribution(StrEnum):
    """One way of feeding the gà trong pot; amounts are in dịch."""

    DAU_HOI = "dau_hoi"  #: every player at the start of a hội
    DAU_VAN = "dau_van"  #: every player at the start of a ván
    NHAI = "nhai"  #: every other player when someone is nhái (×2, ×3 when repeated)
    DANH_U = "danh_u"  #: the player who discarded the winning card
    THONG = "thong"  #: the winner's nhà trên, per dịch of the Thông/Khôi
    BO_U = "bo_u"  #: a player who let a win pass
    U_LANH_LANG = "u_lanh_lang"  #: a light fault at the win
    U_BAO = "u_bao"  #: a heavy fault at the win
    DEN_LANG = "den_lang"  #: a player who pays đền làng
    QUAN_LO = "quan_lo"  #: per card laid down in excess
    BI_DE_U = "bi_de_u"  #: the player whose win was overridden (ù đè)


class BaoRegime(StrEnum):
    """What a báo during play costs (RULES.md §10)."""

    DEN_LANG = "den_lang"  #: pays đền làng at once
    NGOI_DAY = "ngoi_day"  #: sits out; pays for the village if someone wins
    CHEO_DO = "cheo_do"  #: a debt repaid from the faulter's next win


class ChanGaNuoiContribution(StrEnum):
    """One way of feeding the Chắn gà nuôi pot; amounts are in points (RULES.md §12)."""

    DAU_VAN = "dau_van"  #: every player at the start of a ván
    CHIU_NOC = "chiu_noc"  #: every other player when someone chíu a nọc card
    CHIU_DISCARD = "chiu_discard"  #: the discarder when someone chíu a discard
    NHAI = "nhai"  #: every other player when someone is nhái (×2, ×3 when repeated)
