import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope, text } from '../common';
import { errors } from '../errors';
import { AUTH_CODES, authHeaders, BODY_CODES } from './common';
import { approvalSchema, createApprovalBodySchema } from './schemas/approval';

const c = initContract();
const chatIdParams = z.object({ chat_id: text().min(1).max(100) });

export const approvalsContract = c.router({
  requestApproval: {
    method: 'POST',
    path: '/chats/:chat_id/approvals',
    summary: 'Ask people to approve an action, keeping the chat',
    description: [
      'The bot keeps the chat and goes on talking; people of `team_id` (with `skill_name`, only those with that skill) see the request at once in the agent workspace and approve or reject it, with a comment, changing the details marked `editable` if they want. Meanwhile the customer\'s chat widget shows "Waiting for a colleague to confirm…".',
      '',
      'The answer comes as an event to this VA, whatever it subscribed to, by webhook or pull like every event: `approval.decided` (act on `payload.details`, the values as decided) or `approval.expired` after `expires_in_seconds` with no decision. `GET /chats/{chat_id}/approvals/{approval_id}` reads it at any time.',
      '',
      "Only the VA holding the chat may ask (2043); a closed chat is 2040; the team must be the account's (2010), the skill one of the team's (2034).",
    ].join('\n'),
    headers: authHeaders,
    pathParams: chatIdParams,
    body: createApprovalBodySchema,
    responses: { 201: envelope(4330, approvalSchema), ...errors(...AUTH_CODES, ...BODY_CODES, 2010, 2014, 2031, 2034, 2040, 2043) },
  },
  getApproval: {
    method: 'GET',
    path: '/chats/:chat_id/approvals/:approval_id',
    summary: 'Read an approval request and its decision',
    description:
      'The request as the VA asked it, its `status` (`pending`, `approved`, `rejected` or `expired`) and, once decided, the `decision`: who decided and when, the comment, and every detail as decided. An ID that is not a request of this chat in the account is 2121.',
    headers: authHeaders,
    pathParams: chatIdParams.extend({ approval_id: text().min(1).max(100) }),
    responses: { 200: envelope(4331, approvalSchema), ...errors(...AUTH_CODES, 2014, 2121) },
  },
});
