from django.urls import path

from scoring.views import calculator, rules

app_name = "scoring"

urlpatterns = [
    path("", calculator.calculator, name="home"),
    path("tinh-diem/", calculator.calculator, name="calculator"),
    path("le-lang/", rules.rules_table, name="rules"),
    path("le-lang/moi/", rules.rules_new, name="rules_new"),
]
