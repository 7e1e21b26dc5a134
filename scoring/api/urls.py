from django.urls import path

from . import ledger, people, review
from .check_hand import CheckHandView
from .score import ScoreView

urlpatterns = [
    path("score", ScoreView.as_view(), name="score"),
    path("check-hand", CheckHandView.as_view(), name="check-hand"),
    # Sổ điểm (scoring/api/ledger.py)
    path("clubs", people.ClubsView.as_view(), name="clubs"),
    path("players", people.PlayersView.as_view(), name="players"),
    path("rule-sets", people.RuleSetsView.as_view(), name="rule-sets"),
    path("sittings", ledger.SittingsView.as_view(), name="sittings"),
    path("sittings/<int:pk>", ledger.SittingDetailView.as_view(), name="sitting"),
    path("sittings/<int:pk>/balances", ledger.BalancesView.as_view(), name="sitting-balances"),
    path("sittings/<int:pk>/history", ledger.HistoryView.as_view(), name="sitting-history"),
    path("sittings/<int:pk>/settle-up", ledger.SettleUpView.as_view(), name="sitting-settle-up"),
    path("sittings/<int:pk>/van", ledger.VanListView.as_view(), name="van-list"),
    path("sittings/<int:pk>/van/preview", ledger.VanPreviewView.as_view(), name="van-preview"),
    path("sittings/<int:pk>/van/<int:seq>/correct", ledger.VanCorrectView.as_view(), name="van-correct"),
]

# Two-person confirmation (scoring/api/review.py).
urlpatterns += [
    path("sittings/<int:pk>/van/<int:seq>/confirm", review.VanConfirmView.as_view(), name="van-confirm"),
    path("sittings/<int:pk>/van/<int:seq>/reject", review.VanRejectView.as_view(), name="van-reject"),
]

# The club book (scoring/api/book.py).
from . import book  # noqa: E402

urlpatterns += [
    path("clubs/<slug:slug>/balances", book.ClubBalancesView.as_view(), name="club-balances"),
    path(
        "clubs/<slug:slug>/members/<str:player>/statement",
        book.MemberStatementView.as_view(),
        name="club-member-statement",
    ),
]
