import { z } from 'zod';
import { cursorQuery, dateTimeInput, example, intIdParam, isoDateTime, pageSizeQuery, text } from '../../common';

const TRACE_KINDS = ['chat', 'alias_id', 'message', 'event', 'request', 'idempotency_key'] as const;

export const traceQuerySchema = z
  .object({
    id: text()
      .trim()
      .min(1)
      .max(255)
      .describe(
        'Any id a bot developer or customer may quote: a chat ID, an alias ID, a message `transid`, an event `transaction_id` (the `webhook-id` header), a REST `trxid` or an `Idempotency-Key`',
      ),
  })
  .strict();

const traceMatchSchema = z.object({
  kind: z
    .enum(TRACE_KINDS)
    .describe(
      "What the id is: `chat` (a chat ID), `alias_id`, `message` (a message `transid`), `event` (an event `transaction_id` / `webhook-id`; an event entry's `transid` is the same), `request` (a bot REST call's `trxid`), `idempotency_key`",
    ),
  chat_id: z.string().nullable().describe('The chat the id belongs to, when there is one'),
  message_transid: z.string().nullable(),
  event_id: z.number().int().nullable().describe('The event, as in GET /api/admin/chats/{chat_id} (its attempts are there)'),
  request_id: z
    .string()
    .nullable()
    .describe("The bot call's `trxid`, which names its row in the request log (GET /api/admin/bot-requests?trxid=)"),
  virtual_agent_id: z.number().int().nullable(),
  at: isoDateTime.nullable().describe('When the thing happened (created, sent, requested)'),
  summary: z.string().describe('One line for a person: `PATCH /api/v1/chats/… by va-bot → 2031`'),
  link: z.string().describe('Path of the console page that shows it, scrolled to and highlighting it'),
});

const MATCH_EXAMPLE = {
  kind: 'request',
  chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  message_transid: null,
  event_id: null,
  request_id: '019cadc6-9a80-7c2e-9a1d-5e8f0b7c4d21',
  virtual_agent_id: 40,
  at: '2026-03-02T09:00:00.000Z',
  summary: 'PATCH /api/v1/chats/7c9e6679-7425-40de-944b-e07fc1f90ae7 by va-billing-bot → 2040 (trxid 019cadc6-9a80-7c2e-9a1d-5e8f0b7c4d21)',
  link: '/admin/chats/7c9e6679-7425-40de-944b-e07fc1f90ae7?focus=request%3A019cadc6-9a80-7c2e-9a1d-5e8f0b7c4d21',
} satisfies z.input<typeof traceMatchSchema>;
example(traceMatchSchema, MATCH_EXAMPLE);

export type TraceMatch = z.infer<typeof traceMatchSchema>;

export const requestRecordingSchema = z
  .object({
    successes: z
      .enum(['all', 'sampled', 'none'])
      .describe(
        'How successful calls are recorded: `all`; `sampled`, those about a share of the chats (chosen by chat ID, so a chat has all its calls or only its failures); `none`. Failures are always recorded while the log is on',
      ),
    sample_rate: z
      .number()
      .min(0)
      .max(1)
      .describe('The share of chats whose successful calls are recorded (1 under `all`, 0 under `none`)'),
    chat_successes_recorded: z
      .boolean()
      .nullable()
      .describe("With `chat_id`: whether that chat's successful calls are recorded; otherwise null"),
  })
  .describe('What the log records under the server’s settings, so that a call missing from it is not taken for a call never made');

const RECORDING_EXAMPLE = { successes: 'sampled', sample_rate: 0.5, chat_successes_recorded: null } as const;
example(requestRecordingSchema, RECORDING_EXAMPLE);

export const traceAnswerSchema = z.object({
  id: z.string(),
  matches: z.array(traceMatchSchema).describe('Usually one; empty when nothing of the account has this id'),
  recording: requestRecordingSchema.describe(
    'What the bot request log records: a successful call may be missing from it when `successes` is not `all`',
  ),
});
example(traceAnswerSchema, { id: MATCH_EXAMPLE.request_id, matches: [MATCH_EXAMPLE], recording: RECORDING_EXAMPLE });

export const botRequestQuerySchema = z
  .object({
    virtual_agent_id: intIdParam().optional().describe('Calls of this Virtual Agent'),
    chat_id: text().max(100).optional().describe('Calls about this chat'),
    trxid: text().max(100).optional().describe('The call answered with this `trxid`; anything not shaped like one matches nothing'),
    outcome: z.enum(['success', 'failure']).optional().describe('`failure`: answers of HTTP 400 and above'),
    http_status: intIdParam().optional(),
    status_code: intIdParam().optional().describe('The envelope `status_code` of the answer'),
    operation: text().max(50).optional().describe('The bot API operationId, e.g. `updateChat`'),
    since: dateTimeInput().optional().describe('From this time on (inclusive)'),
    until: dateTimeInput().optional().describe('Before this time'),
    page_size: pageSizeQuery,
    cursor: cursorQuery,
  })
  .strict();

export type BotRequestQuery = z.infer<typeof botRequestQuerySchema>;

const botRequestSchema = z.object({
  at: isoDateTime.describe('When the call arrived: the time in its `trxid`, to the millisecond'),
  virtual_agent_id: z.number().int(),
  virtual_agent_login_id: z.string(),
  operation: z.string().describe('The bot API operationId'),
  method: z.string(),
  path: z.string().describe('As sent, ids kept; query parameters by name only, never their values'),
  chat_id: z
    .string()
    .nullable()
    .describe("The chat the call was about, when it is one of the account's; a chat ID that is not (a 2031) is only in `path`"),
  http_status: z.number().int(),
  status_code: z.number().int().nullable(),
  description: z.string().describe("The code's catalogue description and the names of refused fields; never what was sent"),
  trxid: z.string().describe('The `trxid` of the answer, which names this row (a version 7 UUID: it starts with the time)'),
  latency_ms: z.number().int(),
  idempotency_key: z.string().nullable(),
});

example(botRequestSchema, {
  at: '2026-03-02T09:00:00.000Z',
  virtual_agent_id: 40,
  virtual_agent_login_id: 'va-billing-bot',
  operation: 'updateChat',
  method: 'PATCH',
  path: '/api/v1/chats/7c9e6679-7425-40de-944b-e07fc1f90ae7',
  chat_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  http_status: 409,
  status_code: 2040,
  description: 'Chat is closed',
  trxid: '019cadc6-9a80-7c2e-9a1d-5e8f0b7c4d21',
  latency_ms: 4,
  idempotency_key: null,
});

export type BotRequest = z.infer<typeof botRequestSchema>;

export const botRequestPageSchema = z.object({
  requests: z.array(botRequestSchema),
  next_cursor: z.string().nullable(),
  recording: requestRecordingSchema,
});
