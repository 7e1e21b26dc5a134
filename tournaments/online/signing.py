"""How a webhook delivery is signed (the receiver's side is in docs/api.md, "Webhooks").

``X-SoTom-Signature: v1=<hex>`` where ``<hex>`` is HMAC-SHA256, keyed with the webhook's secret,
of the delivery's Unix time (``X-SoTom-Timestamp``), a dot, and the exact body bytes. The time is
inside what is signed, so a receiver that refuses deliveries older than a few minutes (and
remembers the ``X-SoTom-Delivery`` ids it has seen within them) cannot be fooled by a replay.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["DELIVERY", "EVENT", "SIGNATURE", "TIMESTAMP", "new_secret", "signature"]

SIGNATURE = "X-SoTom-Signature"
TIMESTAMP = "X-SoTom-Timestamp"
EVENT = "X-SoTom-Event"
DELIVERY = "X-SoTom-Delivery"


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode("utf-8"), str(timestamp).encode("ascii") + b"." + body, hashlib.sha256)
    return f"v1={mac.hexdigest()}"
