from django.db import IntegrityError, transaction
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from reference.models import Item


class ItemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Item
        fields = ["id", "name", "amount", "created_at"]


class Items(APIView):
    """``GET``: the items (one query). ``POST``: one item, once per ``Idempotency-Key``."""

    def get_permissions(self) -> list[object]:
        return [IsAuthenticated()] if self.request.method == "POST" else []

    def get_authenticators(self) -> list[object]:
        return super().get_authenticators() if self.request.method == "POST" else []

    def get(self, request: Request) -> Response:
        return Response(ItemSerializer(Item.objects.order_by("-id")[:10], many=True).data)

    def post(self, request: Request) -> Response:
        key = request.headers.get("Idempotency-Key", "")
        data = ItemSerializer(data=request.data)
        if not key:
            return Response({"error": "Idempotency-Key"}, status=status.HTTP_400_BAD_REQUEST)
        data.is_valid(raise_exception=True)
        try:
            with transaction.atomic():
                item = Item.objects.create(key=key, owner=request.user, **data.validated_data)
        except IntegrityError:
            return Response(ItemSerializer(Item.objects.get(key=key)).data)
        return Response(ItemSerializer(item).data, status=status.HTTP_201_CREATED)
