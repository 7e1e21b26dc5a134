"""Routes of the sitting reports (included at the site root by ``scoring/urls.py``)."""

from django.urls import path

from scoring.reports import views

urlpatterns = [
    path("so-diem/<int:pk>/in-xuat/", views.exports_page, name="reports"),
    path("so-diem/<int:pk>/bieu-do.json", views.chart_json, name="report_chart"),
    path("so-diem/<int:pk>/bao-cao.pdf", views.report_pdf, name="report_pdf"),
    path("so-diem/<int:pk>/phieu-ghi.pdf", views.score_sheet_pdf, name="score_sheet"),
    path("so-diem/<int:pk>/xuat/sao-luu.json", views.backup_json, name="report_backup"),
]
for _fmt in ("csv", "xlsx"):
    urlpatterns += [
        path(
            f"so-diem/<int:pk>/xuat/so-cai.{_fmt}",
            views.ledger_export,
            {"fmt": _fmt},
            name=f"report_ledger_{_fmt}",
        ),
        path(
            f"so-diem/<int:pk>/xuat/cac-van.{_fmt}",
            views.van_export,
            {"fmt": _fmt},
            name=f"report_van_{_fmt}",
        ),
    ]
for _fmt in ("csv", "xlsx", "pdf"):
    urlpatterns.append(
        path(
            f"so-diem/<int:pk>/xuat/sao-ke/<int:position>.{_fmt}",
            views.statement_export,
            {"fmt": _fmt},
            name=f"report_statement_{_fmt}",
        )
    )
