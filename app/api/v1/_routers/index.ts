import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { authenticateToken } from '@/lib/auth/authenticate-token';
import { createApiHandler } from '@/lib/http/create-api-handler';
import { consumeRateLimit } from '@/lib/http/rate-limit';
import { authRouter } from './auth';
import { chatsRouter } from './chats';
import { messagesRouter } from './messages';
import { teamsRouter } from './teams';

const PUBLIC_PATHS = new Set<string>([botContract.auth.authorize.path]);

/** The bot API: every route but /authorize needs `access_token`; limits count per account. */
export const botApiHandler = createApiHandler({
  contract: botContract,
  router: { auth: authRouter, teams: teamsRouter, chats: chatsRouter, messages: messagesRouter },
  guard: async (req, entry, ctx) => {
    if (PUBLIC_PATHS.has(entry.path)) {
      const ip = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'local';
      ctx.rateLimit = await consumeRateLimit(`ip:${ip}`);
      return;
    }
    ctx.bot = await authenticateToken(await getDb(), { token: req.headers.get('access_token') });
    ctx.rateLimit = await consumeRateLimit(`account:${ctx.bot.accountId}`);
  },
});
