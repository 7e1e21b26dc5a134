from django.urls import include, path

from scoring.views import calculator, clubs, kiem_bai, rules
from scoring.views import sitting as so_diem
from scoring.views.sitting import review

app_name = "scoring"

urlpatterns = [
    path("", calculator.calculator, name="home"),
    path("tinh-diem/", calculator.calculator, name="calculator"),
    path("kiem-bai/", kiem_bai.kiem_bai, name="kiem_bai"),
    path("le-lang/", rules.rules_table, name="rules"),
    path("le-lang/moi/", rules.rules_new, name="rules_new"),
    path("so-diem/", so_diem.sitting_list, name="sitting_list"),
    path("so-diem/moi/", so_diem.sitting_new, name="sitting_new"),
    path("so-diem/<int:pk>/", so_diem.sitting_detail, name="sitting"),
    path("so-diem/<int:pk>/xem-truoc/", so_diem.van_preview_view, name="van_preview"),
    path("so-diem/<int:pk>/van/", so_diem.van_record_view, name="van_record"),
    path("so-diem/<int:pk>/van/<int:seq>/sua/", so_diem.van_correct_view, name="van_correct"),
    path("so-diem/<int:pk>/thanh-toan/", so_diem.settle_up_view, name="settle_up"),
]

# Two-person confirmation (scoring/views/sitting/review.py).
urlpatterns += [
    path("so-diem/<int:pk>/van/<int:seq>/xac-nhan/", review.van_confirm_view, name="van_confirm"),
    path("so-diem/<int:pk>/van/<int:seq>/bac/", review.van_reject_view, name="van_reject"),
]

# Clubs and the roles in them (scoring/views/clubs.py).
urlpatterns += [
    path("lang/", clubs.club_list, name="clubs"),
    path("lang/<slug:slug>/", clubs.club_detail, name="club"),
    path("lang/<slug:slug>/vai-tro/", clubs.role_grant_view, name="club_role_grant"),
    path("lang/<slug:slug>/vai-tro/<int:role_id>/bo/", clubs.role_revoke_view, name="club_role_revoke"),
    path(
        "lang/<slug:slug>/nguoi-choi/<int:player_id>/tai-khoan/",
        clubs.player_link_view,
        name="club_player_link",
    ),
]

# Offline-first app (service worker, manifest, offline pack) and reports (PDF, CSV/XLSX, charts).
urlpatterns += [
    path("", include("scoring.offline.urls")),
    path("", include("scoring.reports.urls")),
]

# Audit trails (nhật ký): a sitting's, a club's and the village rule sets'.
from scoring.views import audit  # noqa: E402

urlpatterns += [
    path("so-diem/<int:pk>/nhat-ky/", audit.sitting_audit_view, name="sitting_audit"),
    path("lang/<slug:slug>/nhat-ky/", audit.club_audit_view, name="club_audit"),
    path("le-lang/nhat-ky/", audit.rules_audit_view, name="rules_audit"),
]

# The club book (scoring/views/book.py): running points across canh, statements, closes, ratings.
from scoring.views import book  # noqa: E402

urlpatterns += [
    path("lang/<slug:slug>/so/", book.book_page, name="club_book"),
    path("lang/<slug:slug>/so/bieu-do.json", book.book_chart, name="club_book_chart"),
    path("lang/<slug:slug>/so/nguoi-choi/<int:player_id>/", book.statement_page, name="club_statement"),
    path("lang/<slug:slug>/so/chot/", book.close_page, name="club_close"),
    path("lang/<slug:slug>/so/chot/<int:close_id>/dao/", book.close_reverse, name="club_close_reverse"),
    path("lang/<slug:slug>/so/trinh-do/tinh-lai/", book.ratings_rebuild, name="club_ratings_rebuild"),
]
for _fmt in ("pdf", "csv", "xlsx"):
    urlpatterns.append(
        path(
            f"lang/<slug:slug>/so/nguoi-choi/<int:player_id>/sao-ke.{_fmt}",
            book.statement_export,
            {"fmt": _fmt},
            name=f"club_statement_{_fmt}",
        )
    )
