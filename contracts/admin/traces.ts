import { initContract } from '@ts-rest/core';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ_CODES } from './common';
import { botRequestPageSchema, botRequestQuerySchema, traceAnswerSchema, traceQuerySchema } from './schemas/trace';

const c = initContract();

const FIND_CODES = [...READ_CODES, 2001] as const;
const LIST_CODES = [...READ_CODES, 2001] as const;

export const tracesContract = c.router({
  findTrace: {
    method: 'GET',
    path: '/trace',
    summary: 'Find anything by an id a bot developer or customer quotes',
    description:
      "Takes a chat ID, alias ID, message `transid`, event `transaction_id` (the `webhook-id` header; an event entry's `transid` is the same), REST `trxid` or `Idempotency-Key` and says what it is, which chat it belongs to and the console page that shows it. Nothing found answers an empty `matches`; ids of another account answer exactly as unknown ones. Each look-up reads an index. Unknown query parameters are refused (2001).",
    query: traceQuerySchema,
    responses: { 200: envelope(4400, traceAnswerSchema), ...errors(...FIND_CODES) },
  },
  listBotRequests: {
    method: 'GET',
    path: '/bot-requests',
    summary: "The bot request log: a Virtual Agent's REST calls and the answers",
    description:
      'Calls of one Virtual Agent (`virtual_agent_id`), about one chat (`chat_id`) or the one with a `trxid`: one of the three is required (2001). Newest first, filtered by the other parameters. Failures are always recorded, successes as BOT_REQUEST_LOG says; kept BOT_REQUEST_LOG_RETENTION_DAYS (7) days. Bodies, tokens and customer text are never recorded. Unknown query parameters are refused (2001).',
    query: botRequestQuerySchema,
    responses: { 200: envelope(4400, botRequestPageSchema), ...errors(...LIST_CODES) },
  },
});
