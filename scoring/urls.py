from django.urls import path

from scoring.views import calculator, kiem_bai, rules

app_name = "scoring"

urlpatterns = [
    path("", calculator.calculator, name="home"),
    path("tinh-diem/", calculator.calculator, name="calculator"),
    path("kiem-bai/", kiem_bai.kiem_bai, name="kiem_bai"),
    path("le-lang/", rules.rules_table, name="rules"),
    path("le-lang/moi/", rules.rules_new, name="rules_new"),
]
