"""Models of the scoring app, one module per concern; import them from here."""

from scoring.models.book import ClubRating, ClubRatingBoard, PeriodClose, PeriodCloseEntry
from scoring.models.idempotency import IdempotencyKey
from scoring.models.ledger import PLAY_KINDS, Account, LedgerTransaction, Posting, TransactionKind
from scoring.models.people import Club, ClubKind, Player
from scoring.models.reports import ReportFile, ReportFileState
from scoring.models.roles import AccessThrottle, ClubRole, ClubRoleKind
from scoring.models.rules import RuleSetSnapshot, VillageRuleSet, VillageRuleSetVersion
from scoring.models.sitting import (
    Hoi,
    Mode,
    Seat,
    Sitting,
    Van,
    VanFault,
    VanOutcome,
    VanReview,
    VanReviewDecision,
    VanStatus,
)

__all__ = [
    "PLAY_KINDS",
    "AccessThrottle",
    "Account",
    "Club",
    "ClubKind",
    "ClubRating",
    "ClubRatingBoard",
    "ClubRole",
    "ClubRoleKind",
    "Hoi",
    "IdempotencyKey",
    "LedgerTransaction",
    "Mode",
    "PeriodClose",
    "PeriodCloseEntry",
    "Player",
    "Posting",
    "ReportFile",
    "ReportFileState",
    "RuleSetSnapshot",
    "Seat",
    "Sitting",
    "TransactionKind",
    "Van",
    "VanFault",
    "VanOutcome",
    "VanReview",
    "VanReviewDecision",
    "VanStatus",
    "VillageRuleSet",
    "VillageRuleSetVersion",
]
