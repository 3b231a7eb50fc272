import { botContract } from '@/contracts/bot';
import { botGuard } from '@/lib/auth/bot-guard';
import { createApiHandler } from '@/lib/http/create-api-handler';
import { authRouter } from './auth';
import { chatsRouter } from './chats';
import { meRouter } from './me';
import { messagesRouter } from './messages';
import { teamsRouter } from './teams';

/** The bot API: every route but /authorize needs `access_token`; limits count per account. */
export const botApiHandler = createApiHandler({
  contract: botContract,
  router: { auth: authRouter, me: meRouter, teams: teamsRouter, chats: chatsRouter, messages: messagesRouter },
  guard: botGuard,
});
