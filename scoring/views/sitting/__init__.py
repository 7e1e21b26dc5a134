"""The sổ điểm pages (scorekeeper, phone first): sittings, recording and correcting ván, settling up.

Plain function views over the ledger's services and selectors; htmx swaps partials of the pages
that own them (``#sitting``, ``#preview``, ``#correct``, ``#new-form``).
"""

from scoring.views.sitting.correct import settle_up_view, van_correct_view
from scoring.views.sitting.pages import sitting_list, sitting_new
from scoring.views.sitting.play import sitting_detail, van_preview_view, van_record_view

__all__ = [
    "settle_up_view",
    "sitting_detail",
    "sitting_list",
    "sitting_new",
    "van_correct_view",
    "van_preview_view",
    "van_record_view",
]
