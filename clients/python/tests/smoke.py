"""Exercises every operation of the client against a running service (test/clients runs it).

Usage: python3 tests/smoke.py BASE_URL API_KEY SIGNING_SECRET HANDOVER_TEAM_ID
Prints one JSON line per step; exits non-zero at the first failure.
"""

from __future__ import annotations

import json
import sys
from typing import Any

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])

from va_chat import VaChatClient, VaChatError, verify_pulled_event  # noqa: E402


def step(name: str, **fields: Any) -> None:
    print(json.dumps({"step": name, **fields}), flush=True)


def main() -> None:
    base, key, secret, team = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    api = VaChatClient(base, key)
    token = api.authorize()
    step("authorize", expires_in=token["expires_in"])
    me = api.get_me()
    teams = api.list_teams()
    asset = next(a for a in api.list_assets(channel="livechat")["assets"])
    step("me", login_id=me["login_id"], teams=len(teams))

    chat = api.create_chat(
        {
            "channel": "livechat",
            "asset_id": asset["id"],
            "customer": {"destination_id": "py-smoke", "name": "Py Smoke"},
            "assignee": me["login_id"],
            "messages": [{"type": "inbound", "text": "hello from python"}],
        },
        idempotency_key="py-smoke-create",
    )
    chat_id = chat["chat_id"]
    step("create_chat", chat_id=chat_id)

    # Pull: the customer's message arrives as a signed event; `after` acknowledges what came before.
    api.post_message(chat_id, {"type": "inbound", "text": "are you there?"})
    types: list[str] = []
    after = None
    for _ in range(3):
        page = api.list_events(after=after, wait_seconds=5)
        types += [verify_pulled_event(secret, e)["event_type"] for e in page["events"]]
        after = page["next_cursor"]
        if "message.received" in types:
            break
    step("list_events", types=types)
    if "message.received" not in types:
        raise SystemExit(f"no message.received among {types}")
    api.ack_events(page["next_cursor"])

    api.set_typing(chat_id, on=True, status_text="Looking…")
    sent = api.post_message(chat_id, {"type": "outbound", "text": "Hi!"}, idempotency_key="py-smoke-hi")
    step("post_message", transid=sent["transid"])
    streamed = api.stream_text(chat_id, ["Chunk ", "by ", "chunk."], status_text="Thinking…")
    step("stream_text", text=streamed.get("text"), state=streamed.get("stream_state"))
    whole = api.stream_reply(
        chat_id,
        [
            {"type": "start"},
            {"type": "tool-input-available", "toolCallId": "c1", "toolName": "lookup", "input": {}},
            {"type": "text-delta", "id": "t", "delta": "One "},
            {"type": "text-delta", "id": "t", "delta": "stream."},
            {"type": "finish"},
        ],
        status_labels={"lookup": "Looking it up…"},
    )
    step("stream_reply", text=whole.get("text"), state=whole.get("stream_state"))
    texts = [m.get("text") for m in api.list_messages(chat_id)["messages"]]
    step("list_messages", texts=texts)

    current = api.get_chat(chat_id)
    api.update_chat(chat_id, {"tags": ["python"]}, team_id=current["team_id"])
    listed = api.list_chats(assignee=me["login_id"], status="picked")
    step("update_chat", tags=api.get_chat(chat_id)["tag"], listed=len(listed["chats"]))

    api.transfer_chat(chat_id, teamid=team)
    try:
        api.post_message(chat_id, {"type": "outbound", "text": "too late"})
        raise SystemExit("wrote into a chat handed over")
    except VaChatError as err:
        step("transfer_chat", team_id=api.get_chat(chat_id)["team_id"], refused=err.status_code)


if __name__ == "__main__":
    main()
