"""The bounds of every number a person or a client can give the engine (docs/bounds.md lists them).

Each is checked where the engine reads its input (rule sets, score and check requests, replayed
ván), before anything is computed, and refused with a Vietnamese message naming the key and the
bound. They are far above any table's numbers (Kính Tứ Cố is 72 points in Luật 2005) and keep
every ván's transfers far below what a 64-bit ledger holds: a win is worth at most
``BOI × (UNIT + UNIT) + UNIT × (CUOC_LIST × DICH + STREAK)`` ≈ 4.6 × 10⁷ points, or
``BOI × STAKE`` = 10⁷ in Tài Bàn.
"""

from __future__ import annotations

__all__ = [
    "BATCH",
    "BOI",
    "CUOC_LIST",
    "DICH",
    "FACTOR",
    "GA_AMOUNT",
    "GA_COUNT",
    "GOM",
    "HAND_TEXT",
    "NAME",
    "PLAYERS",
    "PLAYER_NAME",
    "POINTS",
    "STAKE",
    "STREAK",
    "TEXT",
    "UNIT",
    "VAN",
]

#: Suông S and dịch D of a rule set (points).
UNIT = 1_000
#: A fixed value in points: a cước's ``main``, đền làng, the gom top-up amount, Chắn gà points,
#: Phỏm stakes.
POINTS = 100_000
#: A cước's extra dịch; the Khôi offsets are 0 to 3.
DICH = 100
#: A multiple (bội) of the plain win or of the Tài Bàn stake.
BOI = 100
#: The Tài Bàn stake N (a rule set's, or a ván's from the hội it opens).
STAKE = 100_000
#: Gom per player at a hội's opening, and the pool level under which a top-up is due.
GOM = 1_000_000
#: One gà contribution (gà trong in dịch, Chắn gà nuôi in points).
GA_AMOUNT = 1_000
#: A recorded gà event's count (the nhái level, the cards laid in excess) and the Chi Chi factor.
GA_COUNT = 99
FACTOR = 10
#: A win's streak (consecutive valid wins).
STREAK = 1_000
#: Cước in one score request or one ván (declared ones too).
CUOC_LIST = 40
#: Requests in one list (score, check_hand, replay).
BATCH = 500
#: Ván in one replayed sitting.
VAN = 10_000
#: Players in one replayed sitting are the game's own (2 to 5).
PLAYERS = 5
#: A player's name, wherever one is given (a replayed or recorded ván, Phỏm's kiểm bài, the club's
#: players, an event's registrations): the database columns (``Player.name``, ``SittingPlayer.name``)
#: are this long, and every form and API refuses a longer name with this number.
PLAYER_NAME = 80
#: A rule set's or a custom cước's name.
NAME = 120
#: Characters of a hand written as text, and of a rule set's name or description.
HAND_TEXT = 1_000
TEXT = 2_000
