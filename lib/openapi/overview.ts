import { CODES, type Code } from '@/contracts/codes';
import { EVENT_COMPONENTS, EVENT_SCHEMAS_PATH, type EventComponentName, eventSchemaPath, eventTypeOf } from './events';
import type { StatusCodeEntry } from './types';

/** The code catalogue in its order in contracts/codes.ts, as the document's `x-status-codes`. */
export function statusCodeCatalogue(): StatusCodeEntry[] {
  return (Object.keys(CODES) as unknown as string[])
    .map(Number)
    .map((code) => ({ code, http: CODES[code as Code].http, description: CODES[code as Code].description }));
}

function kindOf(code: number, http: number): string {
  if (http < 300) return 'success';
  if (code >= 3000 && code < 4000) return 'admin API';
  return http >= 500 ? 'server error' : 'request error';
}

function catalogueTable(): string {
  const rows = statusCodeCatalogue().map((c) => `| ${c.code} | ${c.http} | ${kindOf(c.code, c.http)} | ${c.description} |`);
  return ['| status_code | HTTP | Kind | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** When each event is sent, where the schema's own description says less. */
export const EVENT_NOTES: Record<string, string> = {
  'chat.assigned': 'A chat is assigned to the VA: by routing rules, `POST /chats`, `PATCH /chats/{chat_id}`, a transfer or auto-assign.',
  'message.received':
    'An inbound message arrives on a chat assigned to the VA, including one appended with `POST /chats/{chat_id}/messages`.',
};

export function eventNote(name: EventComponentName): string {
  return EVENT_NOTES[eventTypeOf(name)] ?? EVENT_COMPONENTS[name].description ?? '';
}

function eventTable(): string {
  const rows = (Object.keys(EVENT_COMPONENTS) as EventComponentName[]).map(
    (name) => `| \`${eventTypeOf(name)}\` | ${eventNote(name)} | \`${name}\` |`,
  );
  return ['| Event | Sent when | Body schema |', '|---|---|---|', ...rows].join('\n');
}

const ENVELOPE_EXAMPLE = JSON.stringify(
  {
    status_code: 2000,
    description: 'Invalid request body: customer.destination_id (Required)',
    response: { errors: [{ field: 'customer.destination_id', message: 'Required' }] },
  },
  null,
  2,
);

/**
 * The Markdown of `info.description`: everything a bot developer needs beyond the operations.
 * Each `## ` section becomes an entry of the reference's sidebar (/docs/bot-api). The facts are the product's decisions;
 * the numbers are the defaults of the environment variables named next to them.
 */
export function infoDescription({ bot = true, admin, widget = false }: { bot?: boolean; admin: boolean; widget?: boolean }): string {
  if (widget && !bot && !admin) return WIDGET_INTRO;
  if (!bot) return ADMIN_INTRO;
  const sections = [
    `The VA Chat API lets a Virtual Agent (VA, a bot) work the customer chats assigned to it: read them, reply, tag, update, close and hand them over, while the service posts an event to the VA's webhook whenever something happens to them.

- **Base URL:** \`<origin>/api/v1\`. The paths in this document include it.
- **Format:** JSON bodies in and out (\`Content-Type: application/json\`), UTF-8, times in ISO 8601 UTC.
- **This document:** \`GET /api/v1/openapi.json\` (OpenAPI 3.0), the bot API only, so that a client generated from it holds nothing else. The administrators' API has its own document at \`GET /api/admin/openapi.json\`. Readable references: \`/docs/bot-api\` and \`/docs/admin-api\`; the guide to building a bot: \`/docs\`.
- **Event body JSON Schemas:** \`GET ${EVENT_SCHEMAS_PATH}\` (all events), \`GET ${eventSchemaPath('{event_type}')}\` (one event, e.g. \`${eventSchemaPath('chat.assigned')}\`). They are also the ${(Object.keys(EVENT_COMPONENTS) as string[]).map((n) => `\`${n}\``).join(', ')} schemas of this document.`,

    `## Authentication

1. Registering a VA (an administrator's task) issues it an **API key** (\`vak_...\`, shown once, rotatable by an administrator) and a **webhook signing secret** (\`whsec_...\`).
2. \`POST /api/v1/authorize\` with \`{"api_key": "vak_..."}\` returns an access token in \`response.access_token\` and in the \`access_token\` response header.
3. Send the token as the \`access_token\` header of every other call. It is valid for \`expires_in\` seconds (\`ACCESS_TOKEN_TTL_SECONDS\`, 3600 by default); call /authorize again before \`expires_at\`. Earlier tokens stay valid until they expire.
4. Missing header: **2002** (HTTP 400). Unknown token: **2003** (HTTP 400). Expired token: **2004** (HTTP 401). Wrong or disabled API key: **2005** (HTTP 401).

A token acts only inside its VA's account. \`PATCH /chats/{chat_id}\` also takes a \`team_id\` header, the team the chat is in: missing 2002, no such team in the account 2010, chat not in that team 2031.

The header names \`access_token\` and \`team_id\` contain underscores: a proxy in front of the service must pass them (nginx drops them unless \`underscores_in_headers on;\`).`,

    `## Response envelope

Every answer, success or error, is one JSON object, with the HTTP status that belongs to its \`status_code\`:

| Field | Type | Meaning |
|---|---|---|
| \`status_code\` | integer | Service status code, see **Status codes** |
| \`description\` | string | What happened; a refused input names each offending field |
| \`response\` | any | On success the resource (\`""\` for a transfer). On errors \`null\`, or \`{"errors": [{"field", "message"}]}\` when input was refused |

\`\`\`json
${ENVELOPE_EXAMPLE}
\`\`\`

Every response carries a \`trxid\` header. Errors never carry stack traces; a 500 has a fixed description, and its cause is logged under the \`trxid\`. When you contact support, quote the \`trxid\`, the \`chat_id\` and the message's \`transid\`.`,

    `## Status codes

The complete catalogue (also in this document as \`x-status-codes\`; each response lists the codes it can carry). An unsupported method on a known path is 2099 (HTTP 405, with an \`Allow\` header); an unknown path is 2011 (HTTP 404).

${catalogueTable()}`,

    `## Rate limits

Requests are counted per account (all of the account's VAs together) per minute: \`RATE_LIMIT_PER_MINUTE\`, 6000 by default. \`POST /authorize\` is counted per client IP address instead. Over the limit the answer is **2012** (HTTP 429) with a \`Retry-After\` header in seconds.

Responses to counted requests carry:

- \`Rate-Limit-Limit\`: requests allowed per minute;
- \`Rate-Limit-Remaining\`: requests left in the current window;
- \`Rate-Limit-Reset\`: seconds until the window starts again.`,

    `## Request bodies

- At most \`MAX_BODY_BYTES\` (262144 bytes, 256 KiB, by default); a larger body is refused with **2008** (HTTP 413) before it is read.
- \`Content-Type\` must be JSON: anything else is **2009** (HTTP 415). JSON that does not parse is **2006** (HTTP 400).
- A body that does not match the operation's schema is **2000** (HTTP 400), and \`response.errors\` names every offending field with a dotted path (\`customer.destination_id\`, \`messages.0.text\`). Unknown fields are refused too.`,

    `## Idempotency

\`POST /chats\` and \`POST /chats/{chat_id}/messages\` accept an \`Idempotency-Key\` header (up to 200 characters; a UUID is best). Repeating the request with the same key returns the first answer instead of creating a second chat or message; keys are kept 24 hours and scoped to the account. The same key with a different request is **2013** (HTTP 409). Retry a POST that timed out with the same key.`,

    `## Pagination

\`GET /chats\` (most recently updated first), \`GET /chats/{chat_id}/messages\` (oldest first) and \`GET /assets\` (by \`id\`) return at most \`page_size\` items (1 to 100, 25 by default) and a \`next_cursor\`. Pass it as \`cursor\` for the next page; it is \`null\` on the last page. Cursors are opaque; one the API did not issue is **2001** (HTTP 400).`,

    `## Webhooks

The service sends each event the VA subscribed to as a request to the VA's webhook URL. The bodies are described by the \`x-webhooks\` of this document, as one tagged union \`WebhookEvent\` (\`oneOf\` the event schemas, discriminated by \`event_type\`: decode a request body with it) and served as JSON Schema (see above). Every event carries the chat's \`team_id\`, the \`team_id\` header of a \`PATCH /chats/{chat_id}\` that follows.

${eventTable()}

### Delivery

- \`POST\` with \`Content-Type: application/json\`, the static headers configured for the VA and the signature headers below (static headers cannot override them).
- Success is **HTTP 200 only**, answered within **5 seconds**. Any other status, a redirect (never followed), a timeout or a network error fails the attempt.
- \`transaction_id\` is unique per event and the same on every retry; \`posted_on\` is the time of the attempt. Delivery is at least once: if your 200 was lost the event comes again, so discard a \`transaction_id\` you have already handled.
- Store the \`chat_id\` and the \`transid\` of each message; support traces conversations by them.

### Signatures

Each request is signed as [Standard Webhooks](https://www.standardwebhooks.com/) specifies, with the VA's signing secret:

- \`webhook-id\`: the event's \`transaction_id\`;
- \`webhook-timestamp\`: Unix time in seconds of this attempt;
- \`webhook-signature\`: \`v1,<base64 HMAC-SHA256>\` of \`{webhook-id}.{webhook-timestamp}.{raw body}\`, keyed with the secret's bytes (the base64 text after \`whsec_\`).

Verify the raw body before parsing it, and refuse timestamps far from your clock (Standard Webhooks libraries allow 5 minutes):

\`\`\`js
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.VA_SIGNING_SECRET); // 'whsec_...'
const event = wh.verify(rawBody, headers); // throws when the signature or timestamp is wrong
\`\`\`

### Retries

A failed attempt is retried after 1 s, 5 s, 30 s, 2 min, 10 min and 30 min (7 attempts in all), each delay lengthened at random by up to 20 %. When every attempt has failed the event is marked \`failed\`: it is kept, shown to administrators with each attempt, and an administrator can redeliver it.

### Ordering

Events of one chat reach the VA in the order they happened: a later event of a chat is not sent while an earlier one is still being retried. An event that ends \`failed\` no longer holds back the later ones. Events of different chats do not wait for each other.

When a delivery succeeds after failures (the webhook is back), the VA's other events waiting for a retry are attempted at once, in order per chat, rather than at their back-off time; an administrator can do the same with "Retry now" on the VA's page.

### Handover and lost control

A VA answers only the chats it holds. When a chat leaves the VA for any reason (its own transfer or re-queue, a transfer or reassignment by someone else, a close by someone else, the bot-down fallback after an event failed for good, the VA being disabled):

- the VA receives \`chat.unassigned\` (if subscribed) with the reason, the chat's team and its new assignee; a VA that closes a chat itself receives \`chat.closed\` only;
- its events of that chat that were still waiting (to be sent, or to be retried) are **superseded**: not sent again (administrators see them as such), and no later event of the chat reaches it until it is given the chat again (\`chat.assigned\`, which carries the last message);
- an event being sent at that moment is not superseded: a 200 records it delivered, a failure ends it superseded rather than retried, and \`chat.unassigned\` is sent only after that answer. A bot may hand the chat over from inside its webhook handler and then answer 200;
- its writes into the chat are refused with **2043** (HTTP 403): outbound messages (\`POST /chats/{chat_id}/messages\` with \`type: outbound\`), \`PATCH /chats/{chat_id}\` and the transfer. Inbound messages (an integration relaying the customer) and announcements (notes for agents, such as a handover summary) stay open to every VA of the account, and a VA may take an unassigned chat with \`PATCH /chats/{chat_id}\` naming itself as \`assignee\`.

The transcript records each handover as an announcement (\`Transferred to Support by va-billing-bot.\`).`,
  ];
  if (admin) {
    sections.push(`## Admin API

${ADMIN_INTRO}`);
  }
  return sections.join('\n\n');
}

const ADMIN_INTRO = `The administrators' API: accounts, teams, users, skills, Virtual Agents, assets, routing rules, chats and event deliveries, as the admin pages use it.

- **Base URL:** \`<origin>/api/admin\`. The paths in this document include it.
- **Authentication:** \`POST /api/admin/login\` sets the HttpOnly session cookie \`va_session\` that every other operation needs (3001 without it). Changes from another site are refused (3003).
- **Format:** JSON bodies in and out, the same envelope \`{status_code, description, response}\` as the bot API; its own codes are the 3xxx ones.
- **This document:** \`GET /api/admin/openapi.json\`. The bot API's is \`GET /api/v1/openapi.json\`.`;

const WIDGET_INTRO = `The chat widget's API: what the customer's page (\`/chat/<app id>\`, full page or framed by the embed script) calls. A customer of a livechat asset gets a credential, starts a chat, writes, answers quick replies and follows the chat live.

- **Base URL:** \`<origin>/api/widget\`. The paths in this document include it.
- **Authentication:** \`POST /api/widget/apps/{app_id}/visitors\` issues a livechat id and a customer credential; every other call except \`GET /apps/{app_id}\` sends it as \`Authorization: Bearer <token>\` (2070 without it) and reaches only that customer's chats of that app (another's is 2031, as a chat that does not exist). Cookies, the admin session's included, are never read.
- **Format:** JSON bodies in and out, the same envelope \`{status_code, description, response}\` as the bot API.
- **Limits:** requests per client address per minute, new credentials per address per hour, messages per customer per minute (2012, HTTP 429, with \`Retry-After\`); texts up to 2000 characters.
- **Live:** \`GET /chats/{chat_id}/stream\` is a Server-Sent Events stream of the chat (\`chat\`, \`typing\`, \`chunk\`, \`message\` events; the \`WidgetChat\`, \`WidgetTyping\`, \`WidgetChunk\` and \`WidgetMessage\` schemas), across instances, resumable without loss or repeat.
- **This document:** \`GET /api/widget/openapi.json\`. The bot API's is \`GET /api/v1/openapi.json\`, the administrators' \`GET /api/admin/openapi.json\`.`;
