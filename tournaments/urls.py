"""Pages of events, by audience: public (list, scoreboard, projector, check-in link, exports),
organiser (quan-ly/…) and the table page (chieu/…)."""

from django.urls import path

from tournaments.views import organiser, player_list, public, roles, table

app_name = "tournaments"

urlpatterns = [
    # Public
    path("giai/", public.event_list, name="list"),
    path("giai/<slug:slug>/", public.scoreboard, name="scoreboard"),
    path("giai/<slug:slug>/bang-day-du/", public.scoreboard_all, name="scoreboard_all"),
    path("giai/<slug:slug>/man-chieu/", public.projector, name="projector"),
    path("giai/<slug:slug>/diem-danh/<str:token>/", public.check_in_link, name="check_in_link"),
    path("giai/<slug:slug>/xuat/bang-xep-hang.csv", public.export_standings, name="export_standings"),
    path(
        "giai/<slug:slug>/xuat/sao-ke/<int:player_id>.csv", public.export_statement, name="export_statement"
    ),
    # Organiser
    path("giai-moi/", organiser.event_new, name="new"),
    path("giai/<slug:slug>/quan-ly/", organiser.manage, name="manage"),
    path("giai/<slug:slug>/quan-ly/dang-ky/", organiser.register, name="register"),
    path("giai/<slug:slug>/quan-ly/dang-ky-danh-sach/", player_list.register_list, name="register_list"),
    path("giai/<slug:slug>/quan-ly/diem-danh/<int:reg_id>/", organiser.check_in_player, name="check_in"),
    path("giai/<slug:slug>/quan-ly/diem-danh-tat-ca/", organiser.check_in_everyone, name="check_in_all"),
    path("giai/<slug:slug>/quan-ly/rut/<int:reg_id>/", organiser.withdraw, name="withdraw"),
    path("giai/<slug:slug>/quan-ly/xep-vong/", organiser.seat_round, name="seat_round"),
    path("giai/<slug:slug>/quan-ly/tinh-lai/", organiser.recompute, name="recompute"),
    path("giai/<slug:slug>/quan-ly/ket-thuc/", organiser.finish, name="finish"),
    path("giai/<slug:slug>/quan-ly/the-diem-danh/", organiser.check_in_cards, name="check_in_cards"),
    path("giai/<slug:slug>/quan-ly/qr/<int:reg_id>/", organiser.check_in_qr, name="check_in_qr"),
    path("giai/<slug:slug>/quan-ly/vai-tro/", roles.role_add, name="role_add"),
    path("giai/<slug:slug>/quan-ly/vai-tro/<int:role_id>/thu-hoi/", roles.role_end, name="role_end"),
    path(
        "giai/<slug:slug>/quan-ly/vai-tro/ban-to-chuc/<int:user_id>/thu-hoi/",
        roles.organiser_revoke,
        name="organiser_revoke",
    ),
    # Table (chiếu): the scorekeeper's page
    path("giai/<slug:slug>/chieu/<int:table_id>/", table.table_page, name="table"),
    path("giai/<slug:slug>/chieu/<int:table_id>/ma-pin/", table.table_pin, name="table_pin"),
    path("giai/<slug:slug>/chieu/<int:table_id>/nguoi-cam-may/", table.table_holder, name="table_holder"),
    path("giai/<slug:slug>/chieu/<int:table_id>/dong/", table.close, name="table_close"),
    path("giai/<slug:slug>/chieu/<int:table_id>/thay-nguoi/", table.substitute, name="table_substitute"),
    path("giai/<slug:slug>/chieu/<int:table_id>/ma-ghi/", table.token_new, name="table_token_new"),
    path(
        "giai/<slug:slug>/chieu/<int:table_id>/ma-ghi/<int:token_id>/thu-hoi/",
        table.token_end,
        name="table_token_end",
    ),
    path("giai/<slug:slug>/chieu/<int:table_id>/mo-khoa-pin/", table.unlock_pin, name="table_pin_unlock"),
]

# Reports (tournaments/reports.py): XLSX and PDF next to the CSV, score sheets, chart, backup.
from tournaments import reports  # noqa: E402

urlpatterns += [
    path("giai/<slug:slug>/xuat/bang-xep-hang.xlsx", reports.standings_xlsx, name="export_standings_xlsx"),
    path("giai/<slug:slug>/xuat/bang-xep-hang.pdf", reports.standings_pdf, name="export_standings_pdf"),
    path(
        "giai/<slug:slug>/xuat/sao-ke/<int:player_id>.xlsx",
        reports.statement_export,
        {"fmt": "xlsx"},
        name="export_statement_xlsx",
    ),
    path(
        "giai/<slug:slug>/xuat/sao-ke/<int:player_id>.pdf",
        reports.statement_export,
        {"fmt": "pdf"},
        name="export_statement_pdf",
    ),
    path("giai/<slug:slug>/bieu-do/", reports.chart_page, name="report_chart"),
    path("giai/<slug:slug>/bieu-do.json", reports.chart_json, name="report_chart_json"),
    path(
        "giai/<slug:slug>/quan-ly/bang-diem/vong-<int:number>.pdf",
        reports.round_sheets_pdf,
        name="round_score_sheets",
    ),
    path(
        "giai/<slug:slug>/quan-ly/bang-diem/chieu-<int:table_id>.pdf",
        reports.table_sheet_pdf,
        name="table_score_sheet",
    ),
    path("giai/<slug:slug>/quan-ly/sao-luu.json", reports.backup_json, name="export_backup"),
]

# The event's audit trail (nhật ký), for its organisers.
from tournaments.views import audit  # noqa: E402

urlpatterns += [
    path("giai/<slug:slug>/quan-ly/nhat-ky/", audit.event_audit_view, name="audit"),
]
