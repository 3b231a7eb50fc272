"""The bot API's shapes, one TypedDict per schema of openapi.json (same names, same fields).

`test/clients/python-client.test.ts` fails when the document gains a schema or a field that is
not here, and names it. Fields are optional in the type (``total=False``): read what the
document marks as always present with ``x["field"]`` and the rest with ``x.get("field")``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict, Union


class AuthorizeBody(TypedDict, total=False):
    api_key: str


class AccessToken(TypedDict, total=False):
    access_token: str
    token_type: str
    expires_in: int
    expires_at: str


class FieldError(TypedDict, total=False):
    field: str
    message: str


class ErrorEnvelope(TypedDict, total=False):
    status_code: int
    description: str
    response: Optional[Dict[str, Any]]


class CursorExpiredEnvelope(TypedDict, total=False):
    status_code: int
    description: str
    response: Dict[str, Any]


class CursorNotIssuedEnvelope(TypedDict, total=False):
    status_code: int
    description: str
    response: Dict[str, Any]


class Team(TypedDict, total=False):
    team_id: int
    team_name: str
    auto_assign: bool
    skills: List[str]


class Attachment(TypedDict, total=False):
    type: str
    url: str


class QuickReplyOption(TypedDict, total=False):
    title: str
    payload: str


class QuickReplies(TypedDict, total=False):
    request_identifier: str
    options: List[QuickReplyOption]


class QuickReplyResponse(TypedDict, total=False):
    request_identifier: str
    options: List[QuickReplyOption]


class MessageInput(TypedDict, total=False):
    type: str
    text: str
    attachment: Attachment
    abc_sub_type: str
    livechat_sub_type: str
    messenger_sub_type: str
    list_picker_response: List[str]
    listpicker_response: List[str]
    time_picker_response: str
    timepicker_response: str
    template_name: str
    quick_replies: QuickReplies
    quick_reply_response: QuickReplyResponse
    wab_interactive_response: Dict[str, Any]
    timestamp: str
    stream: bool
    in_reply_to_turn: str


class Message(TypedDict, total=False):
    transid: str
    type: str
    text: str
    attachment: Attachment
    abc_sub_type: str
    livechat_sub_type: str
    messenger_sub_type: str
    list_picker_response: List[str]
    time_picker_response: str
    template_name: str
    quick_replies: QuickReplies
    quick_reply_response: QuickReplyResponse
    wab_interactive_response: Dict[str, Any]
    author: Optional[str]
    timestamp: str
    stream_state: str
    stream_seq: int
    turn_id: str
    in_reply_to_turn: str
    stale: bool


class CustomerInput(TypedDict, total=False):
    destination_id: str
    name: str


class CreateChatBody(TypedDict, total=False):
    channel: str
    asset_id: int
    customer: CustomerInput
    team_id: int
    assignee: str
    skill: str
    alias_id: str
    subject: str
    thread_id: str
    browserfingerprint: str
    tags: List[str]
    route_params: Dict[str, Any]
    other_details: Dict[str, Any]
    messages: List[MessageInput]


class Asset(TypedDict, total=False):
    id: int
    name: str
    address: Optional[str]


class Customer(TypedDict, total=False):
    id: int
    destination_id: str
    name: str


class Typing(TypedDict, total=False):
    on: bool
    expires_at: str
    status_text: Optional[str]


class Chat(TypedDict, total=False):
    chat_id: str
    alias_id: Optional[str]
    team_id: int
    team_name: str
    skill: Optional[str]
    created_at: str
    updated_at: str
    status: str
    channel: str
    subject: Optional[str]
    thread_id: Optional[str]
    browserfingerprint: Optional[str]
    asset: Asset
    customer: Customer
    messages: List[Message]
    assignee: Optional[str]
    flag: Optional[str]
    tag: List[str]
    other_details: Dict[str, Any]
    outcome: Optional[str]
    typing: Optional[Typing]


class ChatPage(TypedDict, total=False):
    chats: List[Chat]
    next_cursor: Optional[str]


class HandoverContext(TypedDict, total=False):
    """Context for the people who take the chat over (never shown to the customer)."""

    reason: str
    summary: str
    intent: str
    fields: Dict[str, str]


class ApprovalDetail(TypedDict, total=False):
    key: str
    value: str
    editable: bool


class CreateApprovalBody(TypedDict, total=False):
    action: str
    summary: str
    details: List[ApprovalDetail]
    expires_in_seconds: int
    team_id: int
    skill_name: str


class Approval(TypedDict, total=False):
    approval_id: str
    chat_id: str
    status: str
    action: str
    summary: str
    details: List[ApprovalDetail]
    team_id: int
    skill_name: Optional[str]
    requested_by: str
    created_at: str
    expires_at: str
    decision: Optional[Dict[str, Any]]


class UpdateChatBody(TypedDict, total=False):
    alias_id: Optional[str]
    tags: List[str]
    add_tags: List[str]
    remove_tags: List[str]
    status: str
    assignee: Optional[str]
    outcome: str
    other_details: Dict[str, Any]
    handover: HandoverContext


class Transfer(TypedDict, total=False):
    teamid: Union[int, str]
    skill_name: str


class TransferBody(TypedDict, total=False):
    transfer: Transfer
    handover: HandoverContext


class TypingInput(TypedDict, total=False):
    on: bool
    ttl_seconds: int
    status_text: str


class TypingState(TypedDict, total=False):
    on: bool
    expires_at: Optional[str]
    status_text: Optional[str]
    shown_to_customer: bool


class MessagePage(TypedDict, total=False):
    messages: List[Message]
    next_cursor: Optional[str]


class ChunkInput(TypedDict, total=False):
    seq: int
    text: str


class CloseStreamInput(TypedDict, total=False):
    stream_state: str
    text: str


class PulledEvent(TypedDict, total=False):
    cursor: str
    webhook_id: str
    webhook_timestamp: str
    webhook_signature: str
    body: str


class EventPage(TypedDict, total=False):
    events: List[PulledEvent]
    next_cursor: str


class AckEventsBody(TypedDict, total=False):
    cursor: str


class AckResult(TypedDict, total=False):
    acknowledged: str


class GetMeResponse(TypedDict, total=False):
    login_id: str
    name: str
    description: str
    team_id: int
    team_name: str
    subscriptions: List[str]
    fallback_team_id: Optional[int]


class ListAssetsResponse(TypedDict, total=False):
    assets: List[Dict[str, Any]]
    next_cursor: Optional[str]


class _Event(TypedDict, total=False):
    event_type: str
    channel: str
    chat_id: str
    asset: str
    asset_address: Optional[str]
    destination_id: str
    team_id: int
    thread_id: str
    browserfingerprint: str
    subject: str
    posted_on: str
    transaction_id: str
    payload: Dict[str, Any]
    test: bool
    # Only on a replay's events: {"run_id": "rpl_..."} (the guide's page on replay).
    replay: Dict[str, str]


class ChatAssignedEvent(_Event, total=False):
    pass


class MessageReceivedEvent(_Event, total=False):
    pass


class ChatClosedEvent(_Event, total=False):
    pass


class ChatUnassignedEvent(_Event, total=False):
    pass


class ApprovalDecidedEvent(_Event, total=False):
    pass


class ApprovalExpiredEvent(_Event, total=False):
    pass


class HandoverRequestedEvent(_Event, total=False):
    """The customer pressed "Talk to a person" and the VA's person_request is `bot`."""


WebhookEvent = Union[
    ChatAssignedEvent,
    MessageReceivedEvent,
    ChatClosedEvent,
    ChatUnassignedEvent,
    ApprovalDecidedEvent,
    ApprovalExpiredEvent,
    HandoverRequestedEvent,
]
