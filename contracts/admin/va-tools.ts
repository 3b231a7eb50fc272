import { initContract } from '@ts-rest/core';
import { idParams } from '../schemas/admin-common';
import { testEventResultSchema } from '../schemas/admin-delivery';
import { envelope } from '../schemas/common';
import { ACTION_CODES, errorsFor, meta } from './common';

const c = initContract();

const TEST_CODES = [...ACTION_CODES, 2014, 3006] as const;

export const vaToolsContract = c.router({
  sendTestEvent: {
    method: 'POST',
    path: '/virtual-agents/:id/test-event',
    summary: "Send a signed test event to a virtual agent's webhook, once, and report what it answered",
    description:
      'A `chat.assigned` event for a made-up chat (`chat_id` starting with `test-`, `"test": true` in the body), signed and sent like a real delivery, with the static headers, but sent once, never retried and not stored. A webhook that does not answer 200 still gives 200 here, with `ok: false` and the reason.',
    pathParams: idParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, testEventResultSchema), ...errorsFor(TEST_CODES) },
    metadata: meta(...TEST_CODES),
  },
});
