"""A typed client of the VA Chat bot API on the Python standard library.

One method per operation of openapi.json (``OPERATIONS`` maps each operationId to its method);
each answers the envelope's ``response`` of a 2xx answer and raises ``VaChatError`` otherwise.
The client authorizes with the API key on first use, renews the token a minute before it expires,
and after a refused token (2003, 2004) authorizes once more and repeats the call.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Union, cast

from .types import (
    AccessToken,
    Approval,
    CreateApprovalBody,
    HandoverContext,
    Transfer,
    AckResult,
    Chat,
    ChatPage,
    CreateChatBody,
    EventPage,
    GetMeResponse,
    ListAssetsResponse,
    Message,
    MessageInput,
    MessagePage,
    PulledEvent,
    Team,
    TypingState,
    UpdateChatBody,
)

#: operationId in openapi.json -> the method of ``VaChatClient`` that calls it.
OPERATIONS: Dict[str, str] = {
    "authorize": "authorize",
    "getMe": "get_me",
    "listAssets": "list_assets",
    "listTeams": "list_teams",
    "createChat": "create_chat",
    "listChats": "list_chats",
    "getChat": "get_chat",
    "updateChat": "update_chat",
    "transferChat": "transfer_chat",
    "requestApproval": "request_approval",
    "getApproval": "get_approval",
    "setTyping": "set_typing",
    "listMessages": "list_messages",
    "postMessage": "post_message",
    "appendChunk": "append_chunk",
    "streamReply": "stream_reply",
    "closeStream": "close_stream",
    "listEvents": "list_events",
    "streamEvents": "stream_events",
    "ackEvents": "ack_events",
}

Json = Dict[str, Any]


class VaChatError(Exception):
    """An answer outside 2xx: the envelope's code and text, and the ``trxid`` to quote to support."""

    def __init__(self, http_status: int, envelope: Mapping[str, Any], trxid: Optional[str]) -> None:
        self.http_status = http_status
        code = envelope.get("status_code")
        self.status_code: Optional[int] = code if isinstance(code, int) else None
        self.description = str(envelope.get("description", f"HTTP {http_status}"))
        self.response: Any = envelope.get("response")
        self.trxid = trxid
        super().__init__(f"{self.status_code or http_status} {self.description} (trxid {trxid})")


def _q(value: str) -> str:
    return urllib.parse.quote(value, safe="")


class VaChatClient:
    def __init__(self, base_url: str, api_key: str, *, timeout: float = 30.0) -> None:
        origin = base_url.rstrip("/")
        if origin.endswith("/api/v1"):
            origin = origin[: -len("/api/v1")]
        self.origin = origin
        self.api_key = api_key
        self.timeout = timeout
        self._token: Optional[str] = None
        self._renew_at = 0.0

    # -- transport ---------------------------------------------------------------------------

    def _send(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Union[str, int, None]]] = None,
        body: Any = None,
        data: Union[bytes, Iterable[bytes], None] = None,
        headers: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
    ) -> "tuple[int, Json, Mapping[str, str]]":
        params = {k: str(v) for k, v in (query or {}).items() if v is not None}
        url = f"{self.origin}/api/v1{path}" + (f"?{urllib.parse.urlencode(params)}" if params else "")
        hdrs = {"accept": "application/json", **(headers or {})}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            hdrs["content-type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                return res.status, cast(Json, json.loads(res.read() or b"{}")), res.headers
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                envelope = cast(Json, json.loads(raw))
            except ValueError:
                envelope = {"description": f"HTTP {err.code}"}
            return err.code, envelope, cast(Mapping[str, str], err.headers)

    def access_token(self, force: bool = False) -> str:
        """The current token, fetched or renewed when due."""
        if force or self._token is None or time.monotonic() >= self._renew_at:
            self.authorize()
        assert self._token is not None
        return self._token

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        extra: Mapping[str, str] = kw.pop("headers", None) or {}
        for attempt in (1, 2):
            headers = {**extra, "access_token": self.access_token(force=attempt == 2)}
            status, envelope, res_headers = self._send(method, path, headers=headers, **kw)
            if attempt == 1 and envelope.get("status_code") in (2003, 2004) and kw.get("data") is None:
                continue
            if 200 <= status < 300:
                return envelope.get("response")
            raise VaChatError(status, envelope, res_headers.get("trxid"))
        raise AssertionError("unreachable")

    # -- auth, me, assets, teams ---------------------------------------------------------------

    def authorize(self) -> AccessToken:
        status, envelope, headers = self._send("POST", "/authorize", body={"api_key": self.api_key})
        if status != 200:
            raise VaChatError(status, envelope, headers.get("trxid"))
        token = cast(AccessToken, envelope["response"])
        self._token = token["access_token"]
        # Renew a minute before it expires (count from `expires_in`, on this machine's clock).
        self._renew_at = time.monotonic() + max(0, token["expires_in"] - 60)
        return token

    def get_me(self) -> GetMeResponse:
        return cast(GetMeResponse, self._call("GET", "/me"))

    def list_assets(
        self, *, channel: Optional[str] = None, page_size: Optional[int] = None, cursor: Optional[str] = None
    ) -> ListAssetsResponse:
        query = {"channel": channel, "page_size": page_size, "cursor": cursor}
        return cast(ListAssetsResponse, self._call("GET", "/assets", query=query))

    def list_teams(self) -> List[Team]:
        return cast(List[Team], self._call("GET", "/teams"))

    # -- chats ---------------------------------------------------------------------------------

    def create_chat(self, body: CreateChatBody, *, idempotency_key: Optional[str] = None) -> Chat:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return cast(Chat, self._call("POST", "/chats", body=body, headers=headers))

    def list_chats(
        self,
        *,
        status: Optional[str] = None,
        channel: Optional[str] = None,
        assignee: Optional[str] = None,
        tag: Optional[str] = None,
        team_id: Optional[int] = None,
        updated_since: Optional[str] = None,
        page_size: Optional[int] = None,
        cursor: Optional[str] = None,
    ) -> ChatPage:
        query: Dict[str, Union[str, int, None]] = {
            "status": status,
            "channel": channel,
            "assignee": assignee,
            "tag": tag,
            "team_id": team_id,
            "updated_since": updated_since,
            "page_size": page_size,
            "cursor": cursor,
        }
        return cast(ChatPage, self._call("GET", "/chats", query=query))

    def get_chat(self, chat_id: str) -> Chat:
        return cast(Chat, self._call("GET", f"/chats/{_q(chat_id)}"))

    def update_chat(self, chat_id: str, body: UpdateChatBody, *, team_id: int) -> Chat:
        """`team_id` is the chat's current team (the header the spec requires)."""
        return cast(Chat, self._call("PATCH", f"/chats/{_q(chat_id)}", body=body, headers={"team_id": str(team_id)}))

    def transfer_chat(
        self,
        chat_id: str,
        *,
        teamid: Optional[int] = None,
        skill_name: Optional[str] = None,
        transfer: Optional[Transfer] = None,
        handover: Optional[HandoverContext] = None,
    ) -> str:
        """Hands the chat to a team's queue (`teamid`, as the spec spells it, or a whole `transfer`),
        with optional `handover` context for the people who take it."""
        target: Json = dict(transfer) if transfer is not None else {"teamid": teamid}
        if skill_name:
            target["skill_name"] = skill_name
        body: Json = {"transfer": target}
        if handover is not None:
            body["handover"] = dict(handover)
        return cast(str, self._call("PATCH", f"/internal/chats/{_q(chat_id)}", body=body))

    def request_approval(self, chat_id: str, body: CreateApprovalBody) -> Approval:
        """Asks people of a team to approve an action; the answer comes as approval.decided or approval.expired."""
        return cast(Approval, self._call("POST", f"/chats/{_q(chat_id)}/approvals", body=body))

    def get_approval(self, chat_id: str, approval_id: str) -> Approval:
        return cast(Approval, self._call("GET", f"/chats/{_q(chat_id)}/approvals/{_q(approval_id)}"))

    def set_typing(
        self, chat_id: str, *, on: bool = True, ttl_seconds: Optional[int] = None, status_text: Optional[str] = None
    ) -> TypingState:
        body: Json = {"on": on}
        if ttl_seconds is not None:
            body["ttl_seconds"] = ttl_seconds
        if status_text is not None:
            body["status_text"] = status_text
        return cast(TypingState, self._call("PUT", f"/chats/{_q(chat_id)}/typing", body=body))

    # -- messages ------------------------------------------------------------------------------

    def list_messages(self, chat_id: str, *, page_size: Optional[int] = None, cursor: Optional[str] = None) -> MessagePage:
        query = {"page_size": page_size, "cursor": cursor}
        return cast(MessagePage, self._call("GET", f"/chats/{_q(chat_id)}/messages", query=query))

    def post_message(self, chat_id: str, body: MessageInput, *, idempotency_key: Optional[str] = None) -> Message:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return cast(Message, self._call("POST", f"/chats/{_q(chat_id)}/messages", body=body, headers=headers))

    def append_chunk(self, chat_id: str, transid: str, *, seq: int, text: str) -> Message:
        path = f"/chats/{_q(chat_id)}/messages/{_q(transid)}/chunks"
        return cast(Message, self._call("POST", path, body={"seq": seq, "text": text}))

    def close_stream(self, chat_id: str, transid: str, *, text: Optional[str] = None) -> Message:
        body: Json = {"stream_state": "closed", **({"text": text} if text is not None else {})}
        return cast(Message, self._call("PATCH", f"/chats/{_q(chat_id)}/messages/{_q(transid)}", body=body))

    def stream_reply(
        self,
        chat_id: str,
        events: Iterable[Union[Mapping[str, Any], bytes]],
        *,
        status_text: Optional[str] = None,
        status_labels: Optional[Mapping[str, str]] = None,
    ) -> Message:
        """Sends a whole reply as one event stream (AI SDK UI message chunks or AG-UI events, as
        dicts, or their SSE bytes), as it is produced. Answers the final message."""
        query = {
            "status_text": status_text,
            "status_labels": json.dumps(dict(status_labels)) if status_labels else None,
        }

        def body() -> Iterator[bytes]:
            yield b": reply\n\n"  # sends the request at once: typing shows before the first words
            for e in events:
                yield e if isinstance(e, bytes) else f"data: {json.dumps(e)}\n\n".encode("utf-8")

        headers = {"content-type": "text/event-stream"}
        path = f"/chats/{_q(chat_id)}/messages/stream"
        return cast(Message, self._call("POST", path, query=query, data=body(), headers=headers, timeout=330))

    def stream_text(
        self, chat_id: str, pieces: Iterable[str], *, idempotency_key: Optional[str] = None, status_text: Optional[str] = None
    ) -> Message:
        """Streams a reply chunk by chunk: typing with a status line, then each piece as chunk 1, 2, 3…, then closes it."""
        self.set_typing(chat_id, on=True, ttl_seconds=15, status_text=status_text)
        opened = self.post_message(chat_id, {"type": "outbound", "stream": True}, idempotency_key=idempotency_key)
        seq = opened.get("stream_seq", 0)
        for text in pieces:
            if text:
                seq += 1
                self.append_chunk(chat_id, opened["transid"], seq=seq, text=text)
        return self.close_stream(chat_id, opened["transid"])

    # -- pulled events -------------------------------------------------------------------------

    def list_events(
        self, *, after: Optional[str] = None, limit: Optional[int] = None, wait_seconds: Optional[int] = None
    ) -> EventPage:
        """Long-poll: events after `after` (which acknowledges it), waiting up to `wait_seconds` for one."""
        query = {"after": after, "limit": limit, "wait_seconds": wait_seconds}
        return cast(EventPage, self._call("GET", "/events", query=query, timeout=(wait_seconds or 0) + self.timeout))

    def ack_events(self, cursor: str) -> AckResult:
        return cast(AckResult, self._call("POST", "/events/ack", body={"cursor": cursor}))

    def stream_events(self, *, after: Optional[str] = None, last_event_id: Optional[str] = None) -> Iterator[PulledEvent]:
        """`GET /events/stream` (Server-Sent Events): yields each pulled event as it comes. Resume
        after a cut with `last_event_id=<the last cursor handled>`."""
        headers = {"accept": "text/event-stream", "access_token": self.access_token()}
        if last_event_id:
            headers["last-event-id"] = last_event_id
        query = urllib.parse.urlencode({"after": after} if after else {})
        url = f"{self.origin}/api/v1/events/stream" + (f"?{query}" if query else "")
        req = urllib.request.Request(url, method="GET", headers=headers)
        try:
            res = urllib.request.urlopen(req, timeout=self.timeout + 30)
        except urllib.error.HTTPError as err:
            try:
                envelope = cast(Json, json.loads(err.read()))
            except ValueError:
                envelope = {"description": f"HTTP {err.code}"}
            raise VaChatError(err.code, envelope, err.headers.get("trxid")) from None
        with res:
            kind, data = "message", []
            for raw in res:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
                elif line == "":
                    if data and kind in ("message", "event"):
                        yield cast(PulledEvent, json.loads("\n".join(data)))
                    kind, data = "message", []
