import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { idParams } from '../schemas/admin-common';
import { envelope } from '../schemas/common';
import { ACTION_CODES, errorsFor, meta } from './common';

const c = initContract();

const REDELIVER_CODES = [...ACTION_CODES, 2014, 3006, 3008] as const;

export const eventsContract = c.router({
  redeliverEvent: {
    method: 'POST',
    path: '/events/:id/redeliver',
    summary: 'Send a delivered or failed event again',
    description:
      "The event goes back in its chat's queue with the same `transaction_id`; earlier attempts are kept. An event still pending delivery answers 3008. Follow it in GET /chats/{chat_id}.",
    pathParams: idParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, z.null()), ...errorsFor(REDELIVER_CODES) },
    metadata: meta(...REDELIVER_CODES),
  },
});
