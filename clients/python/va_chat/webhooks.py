"""Standard Webhooks signatures: a webhook delivery and a pulled event are checked the same way."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Mapping, cast

from .types import PulledEvent, WebhookEvent


class WebhookVerificationError(Exception):
    pass


def verify_signature(secret: str, webhook_id: str, timestamp: str, signature: str, body: str, tolerance: int = 300) -> WebhookEvent:
    """The event of a signed body; raises WebhookVerificationError on a bad signature or an old timestamp."""
    b64 = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    key = base64.b64decode(b64.replace("-", "+").replace("_", "/") + "=" * (-len(b64) % 4))
    signed = f"{webhook_id}.{timestamp}.{body}".encode("utf-8")
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    try:
        fresh = abs(time.time() - int(timestamp)) <= tolerance
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number") from None
    if not fresh:
        raise WebhookVerificationError("webhook-timestamp is more than five minutes away")
    # During a secret rotation there are two signatures: either one will do.
    if not any(hmac.compare_digest(s[3:], expected) for s in signature.split() if s.startswith("v1,")):
        raise WebhookVerificationError("no valid signature")
    return cast(WebhookEvent, json.loads(body))


def verify_webhook(secret: str, body: str, headers: Mapping[str, str]) -> WebhookEvent:
    """A webhook delivery: its raw body and its `webhook-*` headers (lower-case names)."""
    return verify_signature(
        secret, headers.get("webhook-id", ""), headers.get("webhook-timestamp", ""), headers.get("webhook-signature", ""), body
    )


def verify_pulled_event(secret: str, item: PulledEvent) -> WebhookEvent:
    """A pulled event (GET /events): the same signature as its webhook would carry."""
    return verify_signature(secret, item["webhook_id"], item["webhook_timestamp"], item["webhook_signature"], item["body"])
