import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { ACTION_CODES, READ_CODES, WRITE_CODES } from './common';
import { idParams } from './schemas/common';
import {
  recoverySchema,
  retryNowResultSchema,
  startRecoverySchema,
  startTestChatSchema,
  testChatSchema,
  testEventResultSchema,
} from './schemas/delivery';
import { vaRepliesSchema } from './schemas/virtual-agent';

const c = initContract();

const TEST_CODES = [...ACTION_CODES, 2014, 3006] as const;
const START_RECOVERY_CODES = [...WRITE_CODES, 2014, 3006, 3008] as const;
const TEST_CHAT_CODES = [...WRITE_CODES, 2014, 3006, 3008] as const;
const LIST_RECOVERY_CODES = [...READ_CODES, 2014, 3006] as const;

export const vaToolsContract = c.router({
  sendTestEvent: {
    method: 'POST',
    path: '/virtual-agents/:id/test-event',
    summary: "Send a signed test event to a virtual agent's webhook, once, and report what it answered",
    description:
      'A `chat.assigned` event for a made-up chat (`chat_id` starting with `test-`, `"test": true` in the body), signed and sent like a real delivery, with the static headers, but sent once, never retried and not stored. A webhook that does not answer 200 still gives 200 here, with `ok: false` and the reason.',
    pathParams: idParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, testEventResultSchema), ...errors(...TEST_CODES) },
  },
  startTestChat: {
    method: 'POST',
    path: '/virtual-agents/:id/test-chats',
    summary: 'Start a real chat assigned to a virtual agent, to try it from the console',
    description:
      "Creates a chat as the bot API's `POST /chats` does, assigned to the VA, with a made-up customer (`destination_id` starting with `test-`, name `Test customer`) and a first customer message, on the account's `api` asset (else its first enabled asset). The VA receives `chat.assigned` with that message, as for any chat; the console then writes as the customer on the chat's page (POST /chats/{chat_id}/messages). A disabled VA, or an account without an enabled asset, is 3008.",
    pathParams: idParams,
    body: startTestChatSchema,
    responses: { 201: envelope(4401, testChatSchema), ...errors(...TEST_CHAT_CODES) },
  },
  startRecovery: {
    method: 'POST',
    path: '/virtual-agents/:id/recoveries',
    summary: 'Send again, in order, every failed event of a virtual agent in a time window',
    description:
      "Starts a background recovery: the failed events of the VA created in [`since`, `until`) go back in the queue with their `transaction_id`, oldest first, a batch at a time (the next batch once the previous one has left `pending`); each chat's events keep their order. Follow its counts with GET on the same path. One recovery runs per VA at a time (3008).",
    pathParams: idParams,
    body: startRecoverySchema,
    responses: { 201: envelope(4401, recoverySchema), ...errors(...START_RECOVERY_CODES) },
  },
  listRecoveries: {
    method: 'GET',
    path: '/virtual-agents/:id/recoveries',
    summary: "A virtual agent's latest recoveries of failed events, with their progress",
    description: 'The ten latest, newest first, each with its counts by the state of the events it put back.',
    pathParams: idParams,
    responses: { 200: envelope(4400, z.array(recoverySchema)), ...errors(...LIST_RECOVERY_CODES) },
  },
  getVaReplies: {
    method: 'GET',
    path: '/virtual-agents/:id/replies',
    summary: 'Chats waiting on a virtual agent now, and its reply timeouts',
    description:
      'The chats the VA holds whose customer is waiting for its reply (the 20 longest waits and the count), and the times its reply budget ran out (`reply_timeout_seconds`): counts of the last 24 hours by action and the 20 latest. Reply timeouts are kept as long as delivered events (EVENT_RETENTION_DAYS).',
    pathParams: idParams,
    responses: { 200: envelope(4400, vaRepliesSchema), ...errors(...LIST_RECOVERY_CODES) },
  },
  retryNow: {
    method: 'POST',
    path: '/virtual-agents/:id/retry-now',
    summary: "Make a virtual agent's waiting events due now",
    description:
      "Every pending event of the VA that waits for a later attempt (a retry's back-off, or a pause of its endpoint after failures) is attempted at once, and this instance's circuit breaker for its webhook starts closed. Events of one chat still go in order. Events of a disabled VA or of a stopped webhook (410) stay held. The service does the same by itself when a delivery to the VA succeeds after failures. `due_now` counts the events made due.",
    pathParams: idParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, retryNowResultSchema), ...errors(...TEST_CODES) },
  },
});
