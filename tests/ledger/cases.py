"""Sittings worked by hand (docs/rules.md §7–§13, `luat-2005` unless noted: S 4, D 2, Tôm 8/1 dịch,
Lèo 10/2, Thập Điều 18/3, Chi Nẩy 36/6). Balances are listed in seat order."""

from __future__ import annotations

from typing import Any

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
FOUR = ["An", "Bình", "Chi", "Dũng"]
THREE = ["An", "Bình", "Chi"]


def case(
    name: str,
    van: list[dict[str, Any]],
    balances: list[int],
    *,
    pool: int = 0,
    pot: int = 0,
    mode: str = "quang",
    players: list[str] = FIVE,
    game: str = "to-tom-5",
    rules: Any = "luat-2005",
    **extra: Any,
) -> dict[str, Any]:
    request = {"game": game, "rules": rules, "mode": mode, "players": players, "van": van, **extra}
    return {
        "name": name,
        "request": request,
        "balances": dict(zip(players, balances, strict=True)),
        "pool": pool,
        "ga_trong": pot,
    }


GOM10 = {"mode": "gom", "gom": 10}  # five gom 10 each: the pool opens at 50

QUANG = [
    # §7 Ù: four pay Tôm 8 -> An +32.
    case("u", [{"winner": "An", "cuoc": ["tom"]}], [32, -8, -8, -8, -8]),
    # Thông: Tôm 8, then Lèo 10 + Thông 1 dịch (2) = 12: An 4 x 8 + 4 x 12 = 80; others -20.
    case(
        "thong",
        [{"winner": "An", "cuoc": ["tom"]}, {"winner": "An", "cuoc": ["leo"]}],
        [80, -20, -20, -20, -20],
    ),
    # Tam Khôi: third Tôm in a row: 8 + Tam Khôi 1 dịch = 10; An 4 x (8 + 10 + 10) = 112.
    case("tam-khoi", [{"winner": "An", "cuoc": ["tom"]}] * 3, [112, -28, -28, -28, -28]),
    # Another player's win breaks the streak: An Tôm, Bình Tôm, An Tôm (streak 1 again: 8).
    # An 32 - 8 + 32 = 56; Bình -8 + 32 - 8 = 16; the others pay three times 8.
    case(
        "streak-broken-by-another-win",
        [
            {"winner": "An", "cuoc": ["tom"]},
            {"winner": "Bình", "cuoc": ["tom"]},
            {"winner": "An", "cuoc": ["tom"]},
        ],
        [56, 16, -24, -24, -24],
    ),
    # Hòa: nothing moves, and the streak is broken: An Tôm, draw, An Tôm = 8 + 8.
    case(
        "hoa",
        [{"winner": "An", "cuoc": ["tom"]}, {"result": "hoa"}, {"winner": "An", "cuoc": ["tom"]}],
        [64, -16, -16, -16, -16],
    ),
    # Ù lành làng: unpaid and no streak: lành làng Tôm, then Tôm = 8 (not Thông).
    case(
        "lanh-lang",
        [{"winner": "An", "cuoc": ["tom"], "fault": "lanh_lang"}, {"winner": "An", "cuoc": ["tom"]}],
        [32, -8, -8, -8, -8],
    ),
    # Ù báo: An pays đền làng A = S = 4 to each of four.
    case("u-bao", [{"winner": "An", "cuoc": ["tom"], "fault": "u_bao"}], [-16, 4, 4, 4, 4]),
    # Xướng thừa: Bình has Suông, declared Lèo: pays the declared 10 to each of four.
    case(
        "xuong-thua",
        [{"winner": "Bình", "cuoc": ["suong"], "declared": ["leo"], "fault": "xuong_thua"}],
        [10, -40, 10, 10, 10],
    ),
    # Xướng thiếu: An has Tôm and Lèo, declared only Tôm: paid the declared 8 by each.
    case(
        "xuong-thieu", [{"winner": "An", "cuoc": ["tom", "leo"], "declared": ["tom"]}], [32, -8, -8, -8, -8]
    ),
    # Báo đền làng: Dũng pays 4 to each of four.
    case("bao-den-lang", [{"bao": "Dũng", "regime": "den_lang"}], [4, 4, 4, -16, 4]),
    # Báo ngồi đấy: An wins Tôm, Dũng pays the whole win 8 x 4 = 32.
    case(
        "bao-ngoi-day",
        [{"bao": "Dũng", "regime": "ngoi_day", "winner": "An", "cuoc": ["tom"]}],
        [32, 0, 0, -32, 0],
    ),
    # Báo ngồi đấy on a draw: nothing.
    case("bao-ngoi-day-hoa", [{"bao": "Dũng", "regime": "ngoi_day", "result": "hoa"}], [0, 0, 0, 0, 0]),
    # Báo chèo đò: a debt; Dũng's next win (Lèo) is unpaid and clears it. Ván 1: An Tôm, four pay 8.
    case(
        "bao-cheo-do",
        [
            {"bao": "Dũng", "regime": "cheo_do", "winner": "An", "cuoc": ["tom"]},
            {"winner": "Dũng", "cuoc": ["leo"]},
        ],
        [32, -8, -8, -8, -8],
    ),
    # Đánh ù đền: Em's discard broke "một thành hai chờ": Em pays Chi's Lèo 10 x 4 = 40.
    case(
        "danh-u-den",
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "danh_u_den"}],
        [0, 0, 40, 0, -40],
    ),
    # Đền chồng: as above, and Em also pays đền làng 4 to each of the four others.
    case(
        "den-chong",
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "den_chong"}],
        [4, 4, 44, 4, -56],
    ),
    # Chịu: Em folded and pays nothing: three pay Tôm 8.
    case("chiu", [{"winner": "An", "cuoc": ["tom"], "chiu": ["Em"]}], [24, -8, -8, -8, 0]),
    # Gà ngoài đơn: Thập Điều 18 + gà ngoài of its 3 dịch (6) = 24 from each of four.
    case(
        "ga-ngoai-don",
        [{"winner": "An", "cuoc": ["thap_dieu"]}],
        [96, -24, -24, -24, -24],
        ga_ngoai={"kind": "don"},
    ),
    # Gà ngoài chồng: Thập Điều + Tôm = 18 + 1 dịch = 20, gà (3 + 1) dịch = 8: 28 from each of four.
    case(
        "ga-ngoai-chong",
        [{"winner": "An", "cuoc": ["thap_dieu", "tom"]}],
        [112, -28, -28, -28, -28],
        ga_ngoai={"kind": "chong"},
    ),
    # Gà làng: đánh ù 1 dịch (2) from the discarder; gà thông 1 dịch from the winner's nhà trên (Em,
    # the seat before An); a Tứ Trụ takes the pot.
    # ván 1: An Tôm 8 x 4, Bình discards: An +32, Bình -10, others -8, pot 2.
    # ván 2: An Tôm + Thông = 10 x 4, Chi discards, Em pays gà thông: An +72, Bình -20, Chi -20,
    #        Dũng -18, Em -20, pot 6.
    # ván 3: Dũng Thập Điều 18 x 4 and the pot 6: An 54, Bình -38, Chi -38, Dũng 60, Em -38.
    case(
        "ga-trong-lang",
        [
            {"winner": "An", "cuoc": ["tom"], "discarder": "Bình"},
            {"winner": "An", "cuoc": ["tom"], "discarder": "Chi"},
            {"winner": "Dũng", "cuoc": ["thap_dieu"]},
        ],
        [54, -38, -38, 60, -38],
        ga_trong={"regime": "lang"},
    ),
    # Gà công nghiệp: đầu hội 2 dịch (4) each at the opening, đầu ván 1 dịch (2) each, nhái: Em was
    # nhái, the four others pay 1 dịch (2) each. A draw: pot 20 + 10 + 8 = 38.
    case(
        "ga-cong-nghiep",
        [{"result": "hoa", "ga": [{"kind": "nhai", "player": "Em"}]}],
        [-8, -8, -8, -8, -6],
        pot=38,
        ga_trong={"regime": "cong_nghiep"},
    ),
]

GOM = [
    # Gom: the pool opens at 50 and pays An's Tôm 8: An -2, pool 42.
    case("gom-u", [{"winner": "An", "cuoc": ["tom"]}], [-2, -10, -10, -10, -10], pool=42, **GOM10),
    # A payout that empties the pool closes the hội; the next ván opens another (gom 10 again).
    # Tôm 8 (42), Chi Nẩy 36 (6), Tôm 8 takes the 6 left (closed), Lèo 10 after a new gom (40).
    case(
        "gom-hoi-closes-and-reopens",
        [
            {"winner": "An", "cuoc": ["tom"]},
            {"winner": "Bình", "cuoc": ["chi_nay"]},
            {"winner": "Chi", "cuoc": ["tom"]},
            {"winner": "Dũng", "cuoc": ["leo"]},
        ],
        [-12, 16, -14, -10, -20],
        pool=40,
        **GOM10,
    ),
    # Hòa in gom: only the gom.
    case("gom-hoa", [{"result": "hoa"}], [-10] * 5, pool=50, **GOM10),
    # Ù lành làng in gom: unpaid.
    case(
        "gom-lanh-lang",
        [{"winner": "An", "cuoc": ["tom"], "fault": "lanh_lang"}],
        [-10] * 5,
        pool=50,
        **GOM10,
    ),
    # Ù báo in gom: An pays A x (n - 1) = 16 into the pool.
    case(
        "gom-u-bao",
        [{"winner": "An", "cuoc": ["tom"], "fault": "u_bao"}],
        [-26, -10, -10, -10, -10],
        pool=66,
        **GOM10,
    ),
    # Xướng thừa in gom: Bình pays the declared Lèo 10 x 4 = 40 into the pool.
    case(
        "gom-xuong-thua",
        [{"winner": "Bình", "cuoc": ["suong"], "declared": ["leo"], "fault": "xuong_thua"}],
        [-10, -50, -10, -10, -10],
        pool=90,
        **GOM10,
    ),
    # Báo đền làng in gom: Dũng pays 16 into the pool.
    case(
        "gom-bao-den-lang",
        [{"bao": "Dũng", "regime": "den_lang"}],
        [-10, -10, -10, -26, -10],
        pool=66,
        **GOM10,
    ),
    # Báo ngồi đấy in gom: Dũng pays An's Tôm 8 instead of the pool.
    case(
        "gom-bao-ngoi-day",
        [{"bao": "Dũng", "regime": "ngoi_day", "winner": "An", "cuoc": ["tom"]}],
        [-2, -10, -10, -18, -10],
        pool=50,
        **GOM10,
    ),
    # Báo chèo đò unpaid when the hội ends: Dũng pays đền làng 16 into the pool at the closing.
    # Tôm 8 (42), Chi Nẩy 36 (6), Lèo takes the 6 left: closes; Dũng's debt: +16 into the pool.
    case(
        "gom-cheo-do-unpaid-at-hoi-end",
        [
            {"bao": "Dũng", "regime": "cheo_do", "winner": "An", "cuoc": ["tom"]},
            {"winner": "Bình", "cuoc": ["chi_nay"]},
            {"winner": "Chi", "cuoc": ["leo"]},
        ],
        [-2, 26, -4, -26, -10],
        pool=16,
        **GOM10,
    ),
    # Đánh ù đền in gom: Em pays Chi's Lèo 10 instead of the pool.
    case(
        "gom-danh-u-den",
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "danh_u_den"}],
        [-10, -10, 0, -10, -20],
        pool=50,
        **GOM10,
    ),
    # Đền chồng in gom: Em pays the Lèo 10 to Chi and đền làng 4 x 4 = 16 into the pool.
    case(
        "gom-den-chong",
        [{"winner": "Chi", "cuoc": ["leo"], "discarder": "Em", "fault": "den_chong"}],
        [-10, -10, 0, -10, -36],
        pool=66,
        **GOM10,
    ),
    # Chịu in gom: the pool pays whoever folded.
    case(
        "gom-chiu",
        [{"winner": "An", "cuoc": ["tom"], "chiu": ["Em"]}],
        [-2, -10, -10, -10, -10],
        pool=42,
        **GOM10,
    ),
    # Gà ngoài đơn in gom: from the pool, Thập Điều 18 + gà 6 = 24: pool 26.
    case(
        "gom-ga-ngoai-don",
        [{"winner": "An", "cuoc": ["thap_dieu"]}],
        [14, -10, -10, -10, -10],
        pool=26,
        ga_ngoai={"kind": "don"},
        **GOM10,
    ),
    # Kính Tứ Cố, hết hội: Bình Tôm (42), then An's Kính Tứ Cố takes the whole pool.
    case(
        "gom-kinh-tu-co-het-hoi",
        [{"winner": "Bình", "cuoc": ["tom"]}, {"winner": "An", "cuoc": ["kinh_tu_co"]}],
        [32, -2, -10, -10, -10],
        rules={"preset": "luat-2005", "kinh_tu_co_policy": "het_hoi"},
        **GOM10,
    ),
    # Default gom (no "gom" key): ceil((2 x 36 + 2) / 5) = 15 each; a draw keeps the pool at 75.
    case("gom-default", [{"result": "hoa"}], [-15] * 5, pool=75, mode="gom"),
    # Gà trong công nghiệp in gom: the opening collects gom 10 + gà đầu hội 4 each; đầu ván 2 each.
    case(
        "gom-ga-cong-nghiep",
        [{"result": "hoa"}],
        [-16] * 5,
        pool=50,
        pot=30,
        ga_trong={"regime": "cong_nghiep"},
        **GOM10,
    ),
]

OTHER_GAMES = [
    # Tài Bàn (stake N = 10): An Suông 1N from each of two; then N = 20 and Bình Tài Bàn 2N = 40.
    case(
        "tai-ban-stakes",
        [{"winner": "An", "cuoc": ["suong"]}, {"winner": "Bình", "cuoc": ["tai_ban"], "stake": 20}],
        [-20, 70, -50],
        game="tai-ban",
        rules="tai-ban",
        players=THREE,
    ),
    # Tài Bàn in gom (gom 30): the pool pays Sửu Bàn 3N = 30.
    case(
        "tai-ban-gom",
        [{"winner": "Chi", "cuoc": ["suu_ban"]}],
        [-30, -30, 0],
        pool=60,
        mode="gom",
        gom=30,
        game="tai-ban",
        rules="tai-ban",
        players=THREE,
    ),
    # Chắn: gà nuôi đầu ván 1 each (pot 4); Chì + Tám Đỏ + Lèo + Tôm + Có Chíu = 8 + 2 + 1 + 1 + 1 = 13
    # from each of three: An 39 - 1.
    case(
        "chan-win",
        [{"winner": "An", "cuoc": ["chi", "tam_do", "leo", "tom", "co_chiu"]}],
        [38, -14, -14, -14],
        pot=4,
        game="chan",
        rules="chan",
        players=FOUR,
    ),
    # Chắn fine "8 đỏ 2 lèo" (12) on a draw: Bình pays 12 to each of three; đầu ván 1 each.
    case(
        "chan-fine",
        [{"result": "hoa", "den_lang": ["Bình"]}],
        [11, -37, 11, 11],
        pot=4,
        game="chan",
        rules="chan",
        players=FOUR,
    ),
    # Chắn gà nuôi: đầu ván 1 each (pot 4), Chi chíu from the nọc (the three others pay 1: pot 7);
    # Dũng's Chì Bạch Thủ = Bạch Thủ 4 + Chì's 1 dịch = 5 from each of three, and he takes the pot:
    # Dũng -1 - 1 + 15 + 7 = 20; An, Bình -1 - 1 - 5 = -7; Chi -1 - 5 = -6.
    case(
        "chan-ga-nuoi",
        [{"winner": "Dũng", "cuoc": ["chi", "bach_thu"], "ga": [{"kind": "chiu_noc", "player": "Chi"}]}],
        [-7, -7, -6, 20],
        game="chan",
        rules="chan",
        players=FOUR,
    ),
    # Phỏm ranks: 2nd, 3rd, 4th pay 1, 2, 3 to the first.
    case(
        "phom-ranks",
        [{"ranks": ["Chi", "An", "Dũng", "Bình"]}],
        [-1, -3, 6, -2],
        game="phom",
        rules="phom",
        players=FOUR,
    ),
    # Phỏm ù with đền: Bình fed An three cards and pays the three losers' 5 alone.
    case(
        "phom-den",
        [{"winner": "An", "den": "Bình"}],
        [15, -15, 0, 0],
        game="phom",
        rules="phom",
        players=FOUR,
    ),
]

ALL = QUANG + GOM + OTHER_GAMES
