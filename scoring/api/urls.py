from django.urls import path

from .score import ScoreView

urlpatterns = [
    path("score", ScoreView.as_view(), name="score"),
]
