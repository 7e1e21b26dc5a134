"""Kiểm bài: the hand checker of the Tổ Tôm family (pure Python, exact).

* :func:`check_hand` — is a winning hand complete (tròn), with its lưng, which card-derived cước
  it carries, and how a declaration (xướng) compares: a :class:`CheckResult` with a
  :class:`Verdict`.
* :func:`find_waits` — every card kind that completes a hand one card short, with the cước of
  each win and the wait cước it allows (Bạch Thủ, Xuyên…, Chi Nẩy).
* :func:`arrangements` — every distinct winning arrangement of a hand.

``check`` and ``waits`` return the JSON objects of the CLI/API contract.
"""

from scoring.engine.checker.api import arrangements, check, check_hand, find_waits, waits
from scoring.engine.checker.common import Arrangement
from scoring.engine.checker.phu import LungSlug, Phu, PhuShape
from scoring.engine.checker.result import CheckResult, Wait, WaitsResult
from scoring.engine.checker.verdict import Verdict

__all__ = [
    "Arrangement",
    "CheckResult",
    "LungSlug",
    "Phu",
    "PhuShape",
    "Verdict",
    "Wait",
    "WaitsResult",
    "arrangements",
    "check",
    "check_hand",
    "find_waits",
    "waits",
]
