import { botContract } from '@/contracts/bot';
import { botGuard } from '@/lib/bot-auth/bot-guard';
import { recordBotRequest } from '@/lib/request-log/record-bot-request';
import { createApiHandler } from '@/platform/http/create-api-handler';
import type { BotAuth } from '@/platform/http/request-context';
import { approvalsRouter } from './approvals';
import { authRouter } from './auth';
import { chatsRouter } from './chats';
import { eventsRouter } from './events';
import { meRouter } from './me';
import { messagesRouter } from './messages';
import { teamsRouter } from './teams';

/**
 * The bot API: every route but /authorize needs `access_token`; limits count per account. Each
 * answer to a known VA goes to the request log.
 */
export const botApiHandler = createApiHandler<typeof botContract, { bot: BotAuth }>({
  contract: botContract,
  router: {
    auth: authRouter,
    me: meRouter,
    teams: teamsRouter,
    chats: chatsRouter,
    messages: messagesRouter,
    approvals: approvalsRouter,
    events: eventsRouter,
  },
  guard: botGuard,
  onAnswered: recordBotRequest,
});
