"""Prints what the package covers, as JSON: each operationId's method parameters and each TypedDict's fields."""

from __future__ import annotations

import inspect
import json
import sys
from typing import Any, Dict

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])

import va_chat  # noqa: E402
from va_chat import types as t  # noqa: E402

out: Dict[str, Any] = {"operations": {}, "types": {}}
for op, name in va_chat.OPERATIONS.items():
    method = getattr(va_chat.VaChatClient, name, None)
    out["operations"][op] = None if method is None else [p for p in inspect.signature(method).parameters if p != "self"]
for name, value in vars(t).items():
    if isinstance(value, type) and hasattr(value, "__annotations__") and hasattr(value, "__total__"):
        out["types"][name] = sorted(value.__annotations__)
print(json.dumps(out))
