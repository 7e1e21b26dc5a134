"""Routes of the offline app (included at the site root by ``scoring/urls.py``)."""

from django.urls import path

from scoring.offline import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("ngoai-tuyen/", views.offline_page, name="offline_page"),
    path("so-diem/<int:pk>/ngoai-tuyen.json", views.pack, name="offline_pack"),
]
