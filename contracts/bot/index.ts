import { initContract } from '@ts-rest/core';
import { approvalsContract } from './approvals';
import { authContract } from './auth';
import { chatsContract } from './chats';
import { eventsContract } from './events';
import { meContract } from './me';
import { messagesContract } from './messages';
import { teamsContract } from './teams';

const c = initContract();

export const BOT_API_PREFIX = '/api/v1';

export const botContract = c.router(
  {
    auth: authContract,
    me: meContract,
    teams: teamsContract,
    chats: chatsContract,
    messages: messagesContract,
    approvals: approvalsContract,
    events: eventsContract,
  },
  { pathPrefix: BOT_API_PREFIX, strictStatusCodes: true },
);
