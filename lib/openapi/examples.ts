import { CODES, type Code } from '@/contracts/codes';
import { UNDERSCORE_HEADER_HINT } from '@/lib/errors';

/**
 * Realistic examples for the reference, by operationId. Every one is checked against its zod
 * schema in lib/openapi/build-document.test.ts, so an example cannot drift from the contract.
 * Operations without an entry get one synthesised from the schema (see sample.ts).
 */

const CHAT_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const VA_LOGIN = 'va-billing-bot';
const TOKEN = 'kX9vQ2mB7tLr4Yw0aNcE3uHs8fJp1ZdG6iVoT5qRbMy';

export const INBOUND_MESSAGE = {
  transid: '0b8e5cf2-5b0d-4d87-9f43-2a3c8f0f6a11',
  type: 'inbound',
  text: 'Hi, I was charged twice for order A-10442',
  livechat_sub_type: 'text',
  author: null,
  timestamp: '2026-03-02T09:14:07.120Z',
} as const;

export const OUTBOUND_MESSAGE = {
  transid: 'e4a1d3c0-8f5e-4b61-a7c2-55d9e6b0c3f4',
  type: 'outbound',
  text: 'Sorry about that! How did you pay?',
  livechat_sub_type: 'quick_replies',
  quick_replies: {
    request_identifier: '3f2b8c1e-6d4a-4e9b-9c7f-1a2b3c4d5e6f',
    options: [
      { title: 'Card', payload: 'pay_card' },
      { title: 'Bank transfer', payload: 'pay_bank' },
    ],
  },
  author: VA_LOGIN,
  timestamp: '2026-03-02T09:14:09.482Z',
} as const;

export const CHAT = {
  chat_id: CHAT_ID,
  alias_id: 'CRM-88412',
  team_id: 672,
  team_name: 'Virtual Agents',
  skill: 'billing',
  created_at: '2026-03-02T09:14:07.120Z',
  updated_at: '2026-03-02T09:14:09.482Z',
  status: 'picked',
  channel: 'livechat',
  subject: null,
  thread_id: 'th_5f2c1a90',
  browserfingerprint: 'bf_91c2e0d4a7',
  asset: { id: 3101, name: 'Website chat', address: 'app-4f7d21' },
  customer: { id: 5521, destination_id: 'lc_a81f3b77', name: 'Dana Whitfield' },
  messages: [INBOUND_MESSAGE, OUTBOUND_MESSAGE],
  assignee: VA_LOGIN,
  flag: null,
  tag: ['billing', 'refund'],
  other_details: { order_id: 'A-10442', vip: true },
  outcome: null,
  typing: null as null | { on: true; expires_at: string; status_text: string | null },
};

const STREAM_TRANSID = '9d2f7a61-3c4b-4e8f-b1a0-6c5d4e3f2a19';
const STREAMED_MESSAGE = {
  transid: STREAM_TRANSID,
  type: 'outbound',
  text: 'I found both charges.',
  author: VA_LOGIN,
  timestamp: '2026-03-02T09:14:12.004Z',
  stream_state: 'open',
  stream_seq: 1,
} as const;

/** The `response` member of each operation's success envelope. */
export const SUCCESS_EXAMPLES: Record<string, unknown> = {
  authorize: {
    access_token: TOKEN,
    token_type: 'access_token',
    expires_in: 3600,
    expires_at: '2026-03-02T10:14:07.000Z',
  },
  getMe: {
    login_id: VA_LOGIN,
    name: 'Billing bot',
    description: 'Answers billing questions and hands over refunds',
    team_id: 672,
    team_name: 'Virtual Agents',
    subscriptions: ['chat.assigned', 'message.received', 'chat.closed', 'chat.unassigned'],
    fallback_team_id: 673,
  },
  listAssets: {
    assets: [
      { id: 3101, channel: 'livechat', name: 'Website chat', address: 'app-4f7d21', enabled: true },
      { id: 3102, channel: 'sms', name: 'Support line', address: '+15551234567', enabled: true },
    ],
    next_cursor: null,
  },
  listEvents: {
    events: [
      {
        cursor: 'ev0000002a000000000000031c0000000000001f5d',
        webhook_id: 'trx_01JDW3K6C4S7PMG1T0W2AF9Q3V',
        webhook_timestamp: '1772442849',
        webhook_signature: 'v1,3pmrF0sWc2N1ak0rD1Ht8Bq3yQ9c4Uu1HLBFnB2sh4o=',
        body: '{"event_type":"message.received","channel":"livechat","chat_id":"c_8f3a2b"}',
      },
    ],
    next_cursor: 'ev0000002a000000000000031c0000000000001f5d',
  },
  // The stream's success is text/event-stream: this is its text.
  streamEvents: [
    'retry: 1000',
    '',
    'id: ev0000002a000000000000031c0000000000001f5d',
    'event: message.received',
    'data: {"cursor":"ev0000002a000000000000031c0000000000001f5d","webhook_id":"trx_01JDW3K6C4S7PMG1T0W2AF9Q3V","webhook_timestamp":"1764230400","webhook_signature":"v1,3pmrF0sWc2N1ak0rD1Ht8Bq3yQ9c4Uu1HLBFnB2sh4o=","body":"{\\"event_type\\":\\"message.received\\",\\"chat_id\\":\\"c_1\\"}"}',
    '',
    ': keep-alive',
    '',
    '',
  ].join('\n'),
  ackEvents: { acknowledged: 'ev0000002a000000000000031c0000000000001f5d' },
  listTeams: [
    { team_id: 672, team_name: 'Virtual Agents', auto_assign: true, skills: ['billing', 'returns'] },
    { team_id: 673, team_name: 'Customer care', auto_assign: false, skills: ['billing', 'spanish'] },
  ],
  createChat: { ...CHAT, skill: null, messages: [INBOUND_MESSAGE], tag: [], updated_at: CHAT.created_at },
  listChats: {
    chats: [{ ...CHAT, messages: [OUTBOUND_MESSAGE] }],
    next_cursor: 'WyIyMDI2LTAzLTAyVDA5OjE0OjA5LjQ4MloiLDQyXQ',
  },
  getChat: { ...CHAT, typing: { on: true, expires_at: '2026-03-02T09:14:20.000Z', status_text: 'Looking up your order…' } },
  setTyping: { on: true, expires_at: '2026-03-02T09:14:20.000Z', status_text: 'Looking up your order…', shown_to_customer: true },
  appendChunk: STREAMED_MESSAGE,
  closeStream: {
    ...STREAMED_MESSAGE,
    text: 'I found both charges. The second one is being refunded; you will see it within 3 days.',
    stream_state: 'closed',
    stream_seq: 4,
  },
  updateChat: {
    ...CHAT,
    status: 'closed',
    tag: ['billing', 'refund', 'resolved'],
    outcome: 'Refund issued',
    updated_at: '2026-03-02T09:21:40.317Z',
  },
  transferChat: '',
  listMessages: { messages: [INBOUND_MESSAGE, OUTBOUND_MESSAGE], next_cursor: null },
  postMessage: OUTBOUND_MESSAGE,
};

/** Request bodies, by operationId. */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  ackEvents: { cursor: 'ev0000002a000000000000031c0000000000001f5d' },
  authorize: { api_key: 'vak_Qm4xT1rZ8bN2cV6yH0wL5pK9sJ3dF7gA2eU1iO4nB8' },
  createChat: {
    channel: 'livechat',
    asset_id: 3101,
    customer: { destination_id: 'lc_a81f3b77', name: 'Dana Whitfield' },
    assignee: VA_LOGIN,
    alias_id: 'CRM-88412',
    thread_id: 'th_5f2c1a90',
    browserfingerprint: 'bf_91c2e0d4a7',
    other_details: { order_id: 'A-10442', vip: true },
    messages: [{ type: 'inbound', text: 'Hi, I was charged twice for order A-10442', livechat_sub_type: 'text' }],
  },
  updateChat: { tags: ['billing', 'refund', 'resolved'], status: 'closed', outcome: 'Refund issued' },
  transferChat: { transfer: { teamid: 673, skill_name: 'billing' } },
  setTyping: { on: true, ttl_seconds: 10, status_text: 'Looking up your order…' },
  appendChunk: { seq: 1, text: 'I found both charges.' },
  closeStream: { stream_state: 'closed' },
  postMessage: {
    type: 'outbound',
    text: 'Sorry about that! How did you pay?',
    livechat_sub_type: 'quick_replies',
    quick_replies: OUTBOUND_MESSAGE.quick_replies,
  },
};

const eventBase = {
  channel: 'livechat',
  chat_id: CHAT_ID,
  asset: '3101',
  asset_address: 'app-4f7d21',
  destination_id: 'lc_a81f3b77',
  team_id: 672,
  thread_id: 'th_5f2c1a90',
  browserfingerprint: 'bf_91c2e0d4a7',
  subject: '',
} as const;

const eventEntry = {
  transid: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  type: 'text',
  text: INBOUND_MESSAGE.text,
  attachments: [],
  timestamp: INBOUND_MESSAGE.timestamp,
  interactive_response: null,
  message: INBOUND_MESSAGE,
};

/** Webhook request bodies, by event component name. */
export const EVENT_EXAMPLES: Record<string, unknown> = {
  ChatAssignedEvent: {
    event_type: 'chat.assigned',
    ...eventBase,
    posted_on: '2026-03-02T09:14:07.301Z',
    payload: { skill: 'billing', messages: [eventEntry] },
    transaction_id: 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  },
  MessageReceivedEvent: {
    event_type: 'message.received',
    ...eventBase,
    posted_on: '2026-03-02T09:15:12.044Z',
    payload: {
      messages: [
        {
          transid: 'b7e2d9c1-0f3a-4b5c-9d8e-7f6a5b4c3d2e',
          type: 'interactive',
          text: '',
          attachments: [],
          timestamp: '2026-03-02T09:15:11.870Z',
          interactive_response: { title: 'Card', postback: 'pay_card' },
          message: {
            transid: '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
            type: 'inbound',
            livechat_sub_type: 'quick_reply_response',
            quick_reply_response: {
              request_identifier: OUTBOUND_MESSAGE.quick_replies.request_identifier,
              options: [{ title: 'Card', payload: 'pay_card' }],
            },
            author: null,
            timestamp: '2026-03-02T09:15:11.870Z',
          },
        },
      ],
    },
    transaction_id: 'b7e2d9c1-0f3a-4b5c-9d8e-7f6a5b4c3d2e',
  },
  ChatClosedEvent: {
    event_type: 'chat.closed',
    ...eventBase,
    posted_on: '2026-03-02T09:21:40.502Z',
    payload: { timestamp: '2026-03-02T09:21:40.317Z', chat_outcome: 'Refund issued' },
    transaction_id: 'c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f',
  },
  ChatUnassignedEvent: {
    event_type: 'chat.unassigned',
    ...eventBase,
    posted_on: '2026-03-02T09:18:02.915Z',
    payload: { timestamp: '2026-03-02T09:18:02.640Z', reason: 'transferred', team_id: 673, assignee: null },
    transaction_id: 'd9e8f7a6-b5c4-4d3e-8f2a-1b0c9d8e7f6a',
  },
};

/** Example values of parameters, by name. */
export const PARAMETER_EXAMPLES: Record<string, unknown> = {
  chat_id: CHAT_ID,
  team_id: 672,
  'Idempotency-Key': '5d7f8a2e-1c3b-4e6d-9f0a-b2c4d6e8f0a1',
  access_token: TOKEN,
  // By `in:name` where a name means different things in different places (`id` of a path is a record's).
  'query:id': '9b2f6c1e-4d3a-4e8b-a1c5-7f0e2d4b6a89',
};

/** What a route looks like to the error examples: which fields it takes, which methods its path allows. */
export type ErrorExampleContext = {
  /** A body field and the message zod gives when it is wrong (Required, or a type mismatch). */
  bodyField?: { name: string; message: string };
  queryField?: string;
  pathField?: string;
  allow: string[];
  path: string;
};

type Detail = { detail?: string; errors?: { field: string; message: string }[]; response?: Record<string, unknown> };

/** How each error code's envelope reads on this route: the description gets `: detail` appended, as ApiError does. */
function detailOf(code: Code, ctx: ErrorExampleContext): Detail {
  const field = (f: string, message: string): Detail => ({ detail: `${f} (${message})`, errors: [{ field: f, message }] });
  switch (code) {
    case 2000:
      return ctx.bodyField ? field(ctx.bodyField.name, ctx.bodyField.message) : field('(body)', 'Expected object, received string');
    case 2001:
      return ctx.queryField === 'page_size'
        ? field('query.page_size', 'Number must be less than or equal to 100')
        : field(`query.${ctx.queryField ?? 'cursor'}`, 'Invalid input');
    case 2002:
      return {
        detail: `access_token header is required; ${UNDERSCORE_HEADER_HINT}`,
        errors: [{ field: 'header.access_token', message: 'Required' }],
      };
    case 2004:
      return { detail: 'call /authorize for a new token' };
    case 2006:
      return { detail: 'Unexpected end of JSON input' };
    case 2008:
      return { detail: 'at most 262144 bytes are accepted' };
    case 2009:
      return { detail: 'got text/plain' };
    case 2010:
      return { detail: 'team 999' };
    case 2011:
      return { detail: `GET ${ctx.path}/unknown` };
    case 2012:
      return { detail: 'at most 6000 requests per minute; retry in 12 s' };
    case 2013:
      return { errors: [{ field: 'header.idempotency-key', message: 'used before with another request' }] };
    case 2014:
      return field(`path.${ctx.pathField ?? 'id'}`, 'String must contain at most 100 character(s)');
    case 2020:
      return field('quick_replies', 'quick replies are offered only on the livechat channel (this chat is sms)');
    case 2032:
      return { detail: 'asset 3101 is on sms, not livechat', errors: [{ field: 'asset_id', message: 'asset is on sms' }] };
    case 2035:
      return { detail: 'asset 3101 (Old website chat) was disabled', errors: [{ field: 'asset_id', message: 'the asset is disabled' }] };
    case 2033:
      return { detail: '"va-unknown"', errors: [{ field: 'assignee', message: 'no such login ID' }] };
    case 2034:
      return {
        detail: '"spanish" in team 672',
        errors: [{ field: ctx.path.includes('/internal/') ? 'transfer.skill_name' : 'skill', message: 'no such skill in the team' }],
      };
    case 2040:
      return { detail: 'only announcements can be added to a closed chat' };
    case 2041:
      return { detail: 'the chat is closed' };
    case 3003:
      return { detail: 'cross-site request refused (Sec-Fetch-Site: cross-site)' };
    case 3004:
      return { detail: 'name "Billing bot"', errors: [{ field: 'name', message: 'already in use' }] };
    case 3005:
      return { detail: 'name', errors: [{ field: 'name', message: 'cannot be changed after creation' }] };
    case 3006:
      return { detail: `no ${resourceOf(ctx.path)} 42` };
    case 3007:
      return {
        detail: '10.0.0.7 is a private, loopback, link-local or reserved address',
        errors: [{ field: 'webhook_url', message: '10.0.0.7 is a private, loopback, link-local or reserved address' }],
      };
    case 3008:
      return {
        detail: ctx.path.includes('/events/')
          ? 'event 42 is still pending delivery'
          : 'routing rule "Billing" sends chats to skill "billing"',
      };
    case 2060:
      return field(ctx.bodyField?.name === 'cursor' ? 'cursor' : 'query.after', 'not a cursor this service gave');
    case 2061:
      return field(ctx.bodyField?.name === 'cursor' ? 'cursor' : 'query.after', 'no such cursor for this virtual agent');
    case 2062:
      return { detail: '5 are open' };
    case 2063: {
      const at = ctx.bodyField?.name === 'cursor' ? 'cursor' : 'query.after';
      return {
        detail: 'read on from ev0000002a00000000000002b10000000000001a07',
        errors: [{ field: at, message: 'older than what retention kept' }],
        response: { oldest_cursor: 'ev0000002a00000000000002b10000000000001a07' },
      };
    }
    case 2099: {
      const wrong = ['PUT', 'DELETE', 'POST', 'PATCH', 'GET'].find((m) => !ctx.allow.includes(m)) ?? 'PUT';
      return { detail: `${wrong} is not supported here; use ${ctx.allow.join(', ')}` };
    }
    default:
      return {};
  }
}

/** `/api/admin/virtual-agents/:id` → `virtual agent`. */
function resourceOf(path: string): string {
  const segment = path.replace(/^\/api\/(admin|v1)\//, '').split('/')[0] ?? 'record';
  return segment.replace(/s$/, '').replace(/-/g, ' ');
}

/** The error envelope a route answers with for `code`. */
export function errorEnvelopeExample(code: Code, ctx: ErrorExampleContext) {
  const { detail, errors, response: extra } = detailOf(code, ctx);
  const base = CODES[code].description;
  return {
    status_code: code,
    description: detail ? `${base}: ${detail}` : base,
    response: errors ? { errors, ...extra } : null,
  };
}

export function successEnvelopeExample(code: Code, response: unknown) {
  return { status_code: code, description: CODES[code].description, response };
}
