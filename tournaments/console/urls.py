"""Pages of Tổ Tôm Điếm by audience: the Trung Quân's console (trung-quan/…) and the public
audience display and timeline (man-hinh/…). The SSE stream is routed in ``totom_site/urls.py``."""

from django.urls import path

from scoring.views.accounts import LoginPage
from tournaments.console.views import console, display, helpers, tables

app_name = "console"

urlpatterns = [
    # Trung Quân (login, per-table permission)
    path("trung-quan/dang-nhap/", LoginPage.as_view(), name="login"),
    path("trung-quan/", tables.table_list, name="list"),
    path("trung-quan/<int:pk>/", console.console, name="console"),
    path("trung-quan/<int:pk>/live/", console.live, name="live"),
    path("trung-quan/<int:pk>/hieu/", console.signal, name="signal"),
    path("trung-quan/<int:pk>/noc/", console.noc, name="noc"),
    path("trung-quan/<int:pk>/luot/", console.turn, name="turn"),
    path("trung-quan/<int:pk>/cai/", console.dealer, name="dealer"),
    path("trung-quan/<int:pk>/van-moi/", console.van_start, name="van_start"),
    path("trung-quan/<int:pk>/phieu-van/", console.van_form, name="van_form"),
    path("trung-quan/<int:pk>/ghi-van/", console.van_record, name="van_record"),
    path("trung-quan/<int:pk>/bat-cai/", helpers.bat_cai, name="bat_cai"),
    path("trung-quan/<int:pk>/u-de/", helpers.u_de_view, name="u_de"),
    # Public, read-only
    path("man-hinh/<int:pk>/", display.display, name="display"),
    path("man-hinh/<int:pk>/dien-bien/", display.timeline_page, name="timeline"),
]
