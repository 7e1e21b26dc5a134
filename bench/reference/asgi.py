"""The reference project as the app is served (``totom_site/asgi.py``): Django's WSGI handler in
the same pool of threads under granian's ASGI interface."""

import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reference.settings")
application = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("SOTOM_THREADS", "4")))
