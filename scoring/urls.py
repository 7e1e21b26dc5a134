from django.urls import include, path

from scoring.views import calculator, kiem_bai, rules
from scoring.views import sitting as so_diem

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

# Offline-first app (service worker, manifest, offline pack) and reports (PDF, CSV/XLSX, charts).
urlpatterns += [
    path("", include("scoring.offline.urls")),
    path("", include("scoring.reports.urls")),
]
