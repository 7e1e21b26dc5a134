"""The Celery app. The broker comes from settings (CELERY_* names); there is no result backend."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")

app = Celery("totom_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
