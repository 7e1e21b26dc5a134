from django.urls import path

from reference.views import Items, page

urlpatterns = [path("items", Items.as_view()), path("page", page)]
