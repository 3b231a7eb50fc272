import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CODES } from '@/contracts/codes';
import { EVENT_COMPONENTS, EVENT_NAMES, EVENT_SCHEMAS_PATH, type EventComponentName, eventSchemaPath, eventTypeOf } from './events';
import type { StatusCodeEntry } from './types';

/** The code catalogue (contracts/codes.ts) in numeric order, as the document's `x-status-codes`. */
export function statusCodeCatalogue(): StatusCodeEntry[] {
  return Object.entries(CODES).map(([code, { http, description }]) => ({ code: Number(code), http, description }));
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
const EVENT_NOTES: Record<string, string> = {
  'chat.assigned': 'A chat is assigned to the VA: by routing rules, `POST /chats`, `PATCH /chats/{chat_id}`, a transfer or auto-assign.',
  'message.received':
    'An inbound message arrives on a chat assigned to the VA, including one appended with `POST /chats/{chat_id}/messages`.',
};

export const eventNote = (name: EventComponentName): string => EVENT_NOTES[eventTypeOf(name)] ?? EVENT_COMPONENTS[name].description ?? '';

function eventTable(): string {
  const rows = EVENT_NAMES.map((name) => `| \`${eventTypeOf(name)}\` | ${eventNote(name)} | \`${name}\` |`);
  return ['| Event | Sent when | Body schema |', '|---|---|---|', ...rows].join('\n');
}

/**
 * The guide's list of pages and its rules in one screen (docs/guide/index.md): the bot API's rules
 * are written there, once, and the references show them with links that lead to the guide's pages.
 * Read from the working directory, as the guide's pages are (app/docs/_guide/load.ts).
 */
function guideSections(): string {
  const index = readFileSync(path.join(process.cwd(), 'docs', 'guide', 'index.md'), 'utf8');
  const linked = index.replace(/\]\(([a-z-]+)\.md(#[\w-]+)?\)/g, '](/docs/guide/$1$2)');
  const pages = linked.match(/^\d+\. \[.*$/gm);
  const rules = /^## The rules in one screen\n[\s\S]*/m.exec(linked)?.[0].trim();
  if (!pages || !rules) throw new Error('docs/guide/index.md has lost its numbered list of pages or "## The rules in one screen"');
  return `## Guide

How to build a bot, and the rules the operations share (tokens, the envelope, limits, idempotency, the delivery and signing of webhooks, handover), are written once, in the guide at \`/docs\`:

${pages.join('\n')}

${rules}`;
}

/**
 * The Markdown of `info.description`: what a reader needs beyond the operations, with the guide's
 * rules (above). Each `## ` section becomes an entry of the reference's sidebar (/docs/bot-api).
 */
export function infoDescription({ bot = true, admin, widget = false }: { bot?: boolean; admin: boolean; widget?: boolean }): string {
  if (widget && !bot && !admin) return WIDGET_INTRO;
  if (!bot) return ADMIN_INTRO;
  const sections = [
    `The VA Chat API lets a Virtual Agent (VA, a bot) work the customer chats assigned to it: read them, reply, tag, update, close and hand them over, while the service posts an event to the VA's webhook whenever something happens to them.

- **Base URL:** \`<origin>/api/v1\`. The paths in this document include it.
- **Format:** JSON bodies in and out (\`Content-Type: application/json\`), UTF-8, times in ISO 8601 UTC.
- **This document:** \`GET /api/v1/openapi.json\` (OpenAPI 3.0), the bot API only, so that a client generated from it holds nothing else. The administrators' API has its own document at \`GET /api/admin/openapi.json\`. Readable references: \`/docs/bot-api\` and \`/docs/admin-api\`; the guide to building a bot: \`/docs\`.
- **Event body JSON Schemas:** \`GET ${EVENT_SCHEMAS_PATH}\` (all events), \`GET ${eventSchemaPath('{event_type}')}\` (one event, e.g. \`${eventSchemaPath('chat.assigned')}\`). They are also the ${EVENT_NAMES.map((n) => `\`${n}\``).join(', ')} schemas of this document.`,

    guideSections(),

    `## Status codes

The complete catalogue (also in this document as \`x-status-codes\`; each response lists the codes it can carry). An unsupported method on a known path is 2099 (HTTP 405, with an \`Allow\` header); an unknown path is 2011 (HTTP 404).

${catalogueTable()}`,

    `## Webhooks

The service sends each event the VA subscribed to as a request to the VA's webhook URL. The bodies are described by the \`x-webhooks\` of this document, as one tagged union \`WebhookEvent\` (\`oneOf\` the event schemas, discriminated by \`event_type\`: decode a request body with it) and served as JSON Schema (see above). Every event carries the chat's \`team_id\`, the \`team_id\` header of a \`PATCH /chats/{chat_id}\` that follows.

${eventTable()}

How each event is delivered, retried, ordered and signed, and what a VA may still do once a chat has left it: the guide's pages above.`,
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
