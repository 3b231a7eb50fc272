"""VA Chat bot API client for Python (standard library only). See clients/python/README.md."""

from .client import OPERATIONS, VaChatClient, VaChatError
from .types import *  # noqa: F401,F403
from .webhooks import WebhookVerificationError, verify_pulled_event, verify_signature, verify_webhook

__all__ = [
    "OPERATIONS",
    "VaChatClient",
    "VaChatError",
    "WebhookVerificationError",
    "verify_pulled_event",
    "verify_signature",
    "verify_webhook",
]
