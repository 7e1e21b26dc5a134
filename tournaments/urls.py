"""Pages of events, by audience: public (list, scoreboard, projector, check-in link, exports),
organiser (quan-ly/…) and the table page (chieu/…)."""

from django.urls import path

from tournaments.views import organiser, public, table

app_name = "tournaments"

urlpatterns = [
    # Public
    path("giai/", public.event_list, name="list"),
    path("giai/<slug:slug>/", public.scoreboard, name="scoreboard"),
    path("giai/<slug:slug>/man-chieu/", public.projector, name="projector"),
    path("giai/<slug:slug>/diem-danh/<str:token>/", public.check_in_link, name="check_in_link"),
    path("giai/<slug:slug>/xuat/bang-xep-hang.csv", public.export_standings, name="export_standings"),
    path("giai/<slug:slug>/xuat/sao-ke/<int:player_id>.csv", public.export_statement, name="export_statement"),
    # Organiser
    path("giai-moi/", organiser.event_new, name="new"),
    path("giai/<slug:slug>/quan-ly/", organiser.manage, name="manage"),
    path("giai/<slug:slug>/quan-ly/dang-ky/", organiser.register, name="register"),
    path("giai/<slug:slug>/quan-ly/diem-danh/<int:reg_id>/", organiser.check_in_player, name="check_in"),
    path("giai/<slug:slug>/quan-ly/rut/<int:reg_id>/", organiser.withdraw, name="withdraw"),
    path("giai/<slug:slug>/quan-ly/xep-vong/", organiser.seat_round, name="seat_round"),
    path("giai/<slug:slug>/quan-ly/tinh-lai/", organiser.recompute, name="recompute"),
    path("giai/<slug:slug>/quan-ly/ket-thuc/", organiser.finish, name="finish"),
    # Table (chiếu): the scorekeeper's page
    path("giai/<slug:slug>/chieu/<int:table_id>/", table.table_page, name="table"),
]
