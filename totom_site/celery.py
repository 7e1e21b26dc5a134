"""The Celery app. Broker and result backend come from settings (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")

app = Celery("totom_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
