/**
 * Every status_code the service answers with, its HTTP status and its description. The codes of
 * the spec keep their meaning; the others are ours. The OpenAPI document and docs/reference/status-codes.md both print
 * this table, so it is the one place to change.
 */
export const CODES = {
  // Success
  4300: { http: 200, description: 'Access token issued' },
  4301: { http: 200, description: 'Teams listed' },
  4302: { http: 201, description: 'Chat created' },
  4303: { http: 200, description: 'Chats listed' },
  4304: { http: 200, description: 'Chat details retrieved successfully' },
  4305: { http: 200, description: 'Messages listed' },
  4306: { http: 201, description: 'Message stored' },
  4307: { http: 200, description: 'Virtual agent details retrieved' },
  4308: { http: 200, description: 'Assets listed' },
  4309: { http: 200, description: 'Events listed' },
  4310: { http: 200, description: 'Events acknowledged' },
  4311: { http: 200, description: 'Typing indicator set' },
  4312: { http: 200, description: 'Chunk appended' },
  4313: { http: 200, description: 'Message updated' },
  4330: { http: 201, description: 'Approval requested' },
  4331: { http: 200, description: 'Approval retrieved' },
  4342: { http: 202, description: 'Chat transferred successfully' },
  4400: { http: 200, description: 'OK' },
  4401: { http: 201, description: 'Created' },
  4320: { http: 201, description: 'Replay run created' },
  4321: { http: 200, description: 'Replay diff computed' },
  // Request errors
  2000: { http: 400, description: 'Invalid request body' },
  2001: { http: 400, description: 'Invalid query parameter' },
  2002: { http: 400, description: 'Invalid header parameter: mandatory header parameters missing' },
  2003: { http: 400, description: 'Invalid access token' },
  2004: { http: 401, description: 'Access token expired' },
  2005: { http: 401, description: 'Invalid API key' },
  2006: { http: 400, description: 'Malformed JSON body' },
  2007: { http: 500, description: 'Internal server error' },
  2008: { http: 413, description: 'Request body too large' },
  2009: {
    http: 415,
    description: 'Unsupported content type: send application/json (text/event-stream to POST /chats/{chat_id}/messages/stream)',
  },
  2010: { http: 404, description: 'No team found for the given team ID' },
  2011: { http: 404, description: 'No such endpoint' },
  2012: { http: 429, description: 'Rate limit exceeded' },
  2013: { http: 409, description: 'Idempotency-Key already used with a different request' },
  2014: { http: 400, description: 'Invalid path parameter' },
  2015: { http: 408, description: 'Request body not received in time' },
  2016: { http: 400, description: 'Malformed HTTP request' },
  2017: {
    http: 400,
    description: 'Conflicting tag changes: send `tags` (replaces all) or `add_tags`/`remove_tags` (changes some), and no tag in both',
  },
  2020: { http: 400, description: 'Message not valid for this channel and direction' },
  2031: { http: 404, description: 'Given chat ID does not exist' },
  2110: { http: 404, description: 'No such replay run' },
  2112: { http: 409, description: 'The replay run has already started: it takes no more chats' },
  2113: { http: 400, description: 'The virtual agent is not a replay sandbox VA of this account' },
  2114: { http: 400, description: 'The replay run has no chats to replay' },
  2032: { http: 400, description: 'No asset found for the given asset ID and channel' },
  2033: { http: 400, description: 'No user found for the given assignee login ID' },
  2034: { http: 400, description: 'No such skill in the team' },
  2035: { http: 409, description: 'The asset is disabled: it takes no new chats' },
  2040: { http: 409, description: 'Chat is closed' },
  2041: { http: 409, description: 'Transfer refused: the chat is on hold or closed' },
  2042: { http: 403, description: 'Transfer is not enabled for this account: ask the platform administrator' },
  2043: { http: 403, description: 'The chat is not assigned to this virtual agent' },
  2044: { http: 404, description: 'No such message in this chat' },
  2045: { http: 409, description: 'Chunk conflict: this seq was accepted with another text' },
  2046: { http: 409, description: 'Chunk out of order: a chunk before this seq is missing' },
  2047: { http: 409, description: 'The message is not an open stream' },
  2048: { http: 400, description: 'Message text too long: a message holds up to 4096 characters' },
  2050: { http: 503, description: 'Service temporarily unavailable: the database cannot be reached; retry after Retry-After seconds' },
  2051: {
    http: 503,
    description: 'This instance holds as many live streams as it can: retry after Retry-After seconds (another instance may take it)',
  },
  2060: { http: 400, description: 'Invalid event cursor: pass a cursor this service gave you' },
  2061: { http: 404, description: 'Event cursor not found: it belongs to another virtual agent' },
  2062: { http: 429, description: 'Too many open event streams for this virtual agent: close one first' },
  2063: { http: 410, description: 'Event cursor expired: its events are past retention; read on from response.oldest_cursor' },
  2064: {
    http: 409,
    description:
      'Event cursor not issued: no event of this virtual agent is at this position (never given, or past the newest event); read on without a cursor or from response.acknowledged_cursor',
  },
  2099: { http: 405, description: 'Method not allowed' },
  // A reply sent as one event stream (POST /chats/{chat_id}/messages/stream)
  2130: { http: 400, description: 'The event stream carried no text before it ended: nothing was sent to the customer' },
  2131: {
    http: 400,
    description:
      'Event stream not understood: send `data: {"type": ...}` events (an AI SDK UI message stream or AG-UI events) as text/event-stream',
  },
  2132: { http: 400, description: 'The event stream ended without `finish`: the reply was cut short with the text sent so far' },
  2133: {
    http: 408,
    description: 'The event stream went quiet for STREAM_IDLE_SECONDS or ran past REPLY_STREAM_MAX_SECONDS: the reply was cut short',
  },
  2134: { http: 400, description: 'The event stream reported an error: the reply was cut short with the text sent so far' },
  // Handover and approvals
  2120: {
    http: 409,
    description: 'Handover limit reached: the virtual agent handed this chat to people max_handovers_per_chat times; it stays with people',
  },
  2121: { http: 404, description: 'No such approval request' },
  2122: { http: 409, description: 'The approval request is already decided or expired' },
  2123: { http: 400, description: 'Only the details the virtual agent marked editable can be changed' },
  2124: { http: 409, description: 'No virtual agent to hand the chat back to: it was not handed over by one' },
  // Chat widget (customers)
  2065: { http: 400, description: 'Quick-reply answer not offered: choose one of the titles of an offer of this chat' },
  2066: {
    http: 429,
    description:
      'Too many open chat streams for this customer or this chat: close another tab of the chat, or wait a minute for a lost one to lapse',
  },
  2070: { http: 401, description: 'Chat widget credential missing, expired or not for this chat: start a new conversation' },
  2071: { http: 404, description: 'No chat widget with this app ID' },
  // Agent workspace (people)
  2080: { http: 401, description: 'Workspace sign-in required: the session is missing or has expired' },
  2081: { http: 401, description: 'Invalid email or password' },
  2082: { http: 410, description: 'Invite link invalid, already used or expired: ask an administrator for a new one' },
  2083: { http: 409, description: 'Someone else picked this chat first' },
  2084: { http: 409, description: 'At capacity: close or hand over a chat before taking another' },
  2085: { http: 404, description: 'No such chat in your teams' },
  2086: { http: 403, description: 'The chat is not assigned to you: pick it first' },
  2087: {
    http: 409,
    description:
      "Stream cursor not issued: the Last-Event-ID or after is past the chat's newest message; resume with the last id the stream sent, or open the stream without one",
  },
  2100: { http: 409, description: 'Stale reply: the customer has written since the turn this reply answers (in_reply_to_turn)' },
  2101: { http: 409, description: 'The streamed reply was superseded: the customer started a new turn, or a person took the chat over' },
  4108: { http: 500, description: 'Unable to get the chat details' },
  // Admin API
  3001: { http: 401, description: 'Sign in required' },
  3002: { http: 401, description: 'Invalid email or password' },
  3003: { http: 403, description: 'Forbidden' },
  3004: { http: 409, description: 'Name already in use' },
  3005: { http: 400, description: 'Field cannot be changed after creation' },
  3006: { http: 404, description: 'Not found' },
  3007: { http: 400, description: 'Webhook URL refused' },
  3008: { http: 409, description: 'Conflict with the current state' },
  3009: { http: 400, description: 'Password too weak' },
  3010: {
    http: 409,
    description: 'Confirmation required: the virtual agent no longer holds the chat; send force: true to redeliver anyway',
  },
} as const satisfies Record<number, { http: number; description: string }>;

export type Code = keyof typeof CODES;
export type ErrorCode = {
  [K in Code]: (typeof CODES)[K]['http'] extends 200 | 201 | 202 ? never : K;
}[Code];
