"""Routes of the offline app (included at the site root by ``scoring/urls.py``)."""

from django.urls import path

from scoring.offline import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("ngoai-tuyen/", views.offline_page, name="offline_page"),
    path("so-diem/<int:pk>/ngoai-tuyen.json", views.pack, name="offline_pack"),
    path("mang-noi-bo/", views.lan_page, name="lan"),
    path("mang-noi-bo/so-tom-ca.crt", views.lan_certificate, name="lan_certificate"),
]
