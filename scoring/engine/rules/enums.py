"""The closed choices of a rule set (docs/rules.md §8–§10, §12)."""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "BaoRegime",
    "BareTriple",
    "ChanGaNuoi",
    "ChanGaNuoiContribution",
    "GaDauHoiQuang",
    "GaContribution",
    "GaNgoaiKind",
    "GaTrongRegime",
    "KinhTuCoPolicy",
    "MainCuoc",
    "MainTie",
    "Repeat",
]


class KinhTuCoPolicy(StrEnum):
    """What a Kính Tứ Cố win takes in đánh gom."""

    POINTS = "points"  #: its points, like any other win
    HET_HOI = "het_hoi"  #: the whole pool: the hội ends (hết hội)


class GaNgoaiKind(StrEnum):
    """Gà ngoài: extra dịch the winner of a listed tiếng receives (docs/rules.md §9)."""

    NONE = "none"  #: no gà ngoài
    DON = "don"  #: gà ngoài đơn: the dịch of the largest cước only
    CHONG = "chong"  #: gà ngoài chồng (gà cõng): the dịch of every cước


class GaTrongRegime(StrEnum):
    """Gà trong: which contributions feed the pot (docs/rules.md §9)."""

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
    """What a báo during play costs (docs/rules.md §10)."""

    DEN_LANG = "den_lang"  #: pays đền làng at once
    NGOI_DAY = "ngoi_day"  #: sits out; pays for the village if someone wins
    CHEO_DO = "cheo_do"  #: a debt repaid from the faulter's next win


class ChanGaNuoiContribution(StrEnum):
    """One way of feeding the Chắn gà nuôi pot; amounts are in points (docs/rules.md §12)."""

    DAU_VAN = "dau_van"  #: every player at the start of a ván
    CHIU_NOC = "chiu_noc"  #: every other player when someone chíu a nọc card
    CHIU_DISCARD = "chiu_discard"  #: the discarder when someone chíu a discard
    NHAI = "nhai"  #: every other player when someone is nhái (×2, ×3 when repeated)


# -- choices where the sources disagree (docs/rules.md §5, §6, §9, §11); each default is what the
# -- engine did before the choice became an option, so no stored sitting changes.


class MainCuoc(StrEnum):
    """Which cước of a win counts at its main value (docs/rules.md §6, e.g. Cửu Khôi + Thập Điều)."""

    #: The one that makes the win worth most (Thập Điều 18 + 7 dịch of Cửu Khôi = 32).
    MOST_POINTS = "most_points"
    #: The *tiếng ù cao nhất*, the highest main value, as the seeds word it (Cửu Khôi 20 + 3 dịch = 26).
    HIGHEST = "highest"


class MainTie(StrEnum):
    """With ``main_cuoc = highest``: which of two cước of equal main value is the main one
    (hội 50: Ngũ Khôi and Thập Điều are both 12; Bạch Thủ and Thiên Ù both 8)."""

    #: The one that makes the win worth most (the other brings its larger dịch).
    MOST_POINTS = "most_points"
    #: The one carrying more dịch (the other brings its smaller dịch).
    MOST_DICH = "most_dich"


class Repeat(StrEnum):
    """How a Tôm or a Lèo declared several times counts (docs/rules.md §5: "some houses count each Lèo")."""

    EACH = "each"  #: every one counts (Chắn's rule; two Lèo = Lèo + 2 dịch)
    ONCE = "once"  #: once, however many the hand holds


class GaDauHoiQuang(StrEnum):
    """Gà đầu hội when đánh quăng, where a whole sitting is one hội (docs/rules.md §8, §9)."""

    ONCE = "once"  #: collected once, before the sitting's first ván
    NONE = "none"  #: not collected: gà đầu hội belongs to đánh gom's hội


class BareTriple(StrEnum):
    """Tài Bàn: how three identical cards not named as a khàn count (docs/rules.md §4, §11)."""

    PHONG = "phong"  #: as a phỗng (1 lưng, tài 2): the count is a floor
    KHAN = "khan"  #: as a khàn (3 lưng, tài 6), unless the hand says no khàn was dealt


class ChanGaNuoi(StrEnum):
    """Whether a Chắn table keeps the gà nuôi pot (docs/rules.md §12)."""

    NUOI = "nuoi"  #: đầu ván, chíu and nhái feed the pot; a Chì Bạch Thủ (…) win takes it
    NONE = "none"  #: no gà nuôi: nothing goes into the pot
