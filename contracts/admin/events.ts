import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { ACTION_CODES } from './common';
import { idParams } from './schemas/common';

const c = initContract();

const REDELIVER_CODES = [...ACTION_CODES, 2001, 2014, 3006, 3008, 3010] as const;

const redeliverQuerySchema = z
  .object({
    force: z
      .enum(['true', 'false'])
      .optional()
      .describe("`true`: redeliver even though the event's VA no longer holds the chat (otherwise 3010)"),
  })
  .strict();

export const eventsContract = c.router({
  redeliverEvent: {
    method: 'POST',
    path: '/events/:id/redeliver',
    summary: 'Send a delivered or failed event again',
    description:
      "The event goes back in its chat's queue with the same `transaction_id`; earlier attempts are kept. An event still pending delivery answers 3008. When the event's VA no longer holds the chat (it was handed over, re-queued or closed since), the call asks first: 3010, unless `force=true`. Delivered, failed and superseded events can be redelivered. Follow it in GET /chats/{chat_id}. Unknown query parameters are refused (2001).",
    pathParams: idParams,
    query: redeliverQuerySchema,
    body: c.noBody(),
    responses: { 200: envelope(4400, z.null()), ...errors(...REDELIVER_CODES) },
  },
});
