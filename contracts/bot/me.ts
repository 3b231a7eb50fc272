import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { cursorQuery, envelope, pageSizeQuery } from '../common';
import { CHANNELS } from '../enums';
import { errors } from '../errors';
import { AUTH_CODES, authHeaders } from './common';
import { assetPageSchema, meSchema } from './schemas/me';

const c = initContract();

export const meContract = c.router({
  getMe: {
    method: 'GET',
    path: '/me',
    summary: 'Who the calling VA is: login ID, name, team and subscriptions',
    description:
      'The VA the access token belongs to. Its `login_id` is the `assignee` of the chats it holds (`GET /chats?assignee=<login_id>&status=picked` lists them, e.g. to catch up after a restart); `team_id` is its team. A VA writes outbound messages, changes and transfers only on chats assigned to it (2043 otherwise).',
    headers: authHeaders,
    responses: { 200: envelope(4307, meSchema), ...errors(...AUTH_CODES) },
  },
  listAssets: {
    method: 'GET',
    path: '/assets',
    summary: "List the account's channel assets",
    description:
      "The channel assets (sms long codes, social pages, email addresses, livechat apps...) of the account, by `id`, `page_size` at a time with `next_cursor`; `channel` narrows the list. An asset's `id` is the `asset_id` of `POST /chats`. Unknown query parameters are refused (2001).",
    headers: authHeaders,
    query: z
      .object({
        channel: z.enum(CHANNELS).optional(),
        page_size: pageSizeQuery,
        cursor: cursorQuery,
      })
      .strict(),
    responses: { 200: envelope(4308, assetPageSchema), ...errors(...AUTH_CODES, 2001) },
  },
});
