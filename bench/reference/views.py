import os

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from reference.models import Item
from reference.page import decode


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


def _shape() -> dict[str, object]:
    """The page's controls and rows, as many of each as ``REFERENCE_PAGE`` says (``page.py``)."""
    counts = decode(os.environ.get("REFERENCE_PAGE", ""))
    controls: list[dict[str, object]] = []
    per, extra = divmod(counts["option"], counts["select"]) if counts["select"] else (0, 0)
    for i in range(counts["select"]):
        options = [
            {"value": f"o{i}-{j}", "label": f"Lựa chọn {j + 1}"}
            for j in range(per + (extra if i == 0 else 0))
        ]
        controls.append(
            {
                "kind": "select",
                "name": f"chon_{i}",
                "label": f"Chọn {i + 1}",
                "options": options,
                "value": "o0-0",
            }
        )
    for i in range(max(0, counts["input"] - 1)):  # the csrf token's hidden input is one
        kind = ("text", "number", "checkbox")[i % 3]
        controls.append({"kind": kind, "name": f"o_{i}", "label": f"Ô {i + 1}", "value": str(i)})
    controls += [
        {"kind": "textarea", "name": f"ghi_{i}", "label": "Ghi chú", "value": ""}
        for i in range(counts["textarea"])
    ]
    controls += [
        {"kind": "button", "name": f"nut_{i}", "label": f"Nút {i + 1}", "value": str(i)}
        for i in range(counts["button"])
    ]
    loose = (
        []
        if counts["select"]
        else [{"value": f"g{j}", "label": f"Gợi ý {j + 1}"} for j in range(counts["option"])]
    )
    rows = [
        {"name": f"Người {i + 1}", "amount": (i * 7) % 23 - 11, "note": "" if i % 2 else "ù"}
        for i in range(max(0, counts["tr"] - 1))  # the table's head row is one
    ]
    return {"controls": controls, "loose_options": loose, "rows": rows, "table": counts["tr"] > 0}


def page(request: HttpRequest) -> HttpResponse:
    """``GET /page``: a template as the calculator's, rendered through Django's template engine,
    with the latest items (one query, as the calculator reads its rule sets)."""
    return render(
        request, "reference/page.html", {**_shape(), "items": list(Item.objects.order_by("-id")[:10])}
    )
