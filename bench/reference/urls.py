from django.urls import path

from reference.views import Items

urlpatterns = [path("items", Items.as_view())]
