import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { authorize } from '@/lib/bot-auth/authorize';
import { currentContext } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const authRouter = tsr.router(botContract.auth, {
  authorize: async ({ body }, { responseHeaders }) => {
    const ctx = currentContext();
    const token = await authorize(await getDb(), { apiKey: body.api_key, clientAddress: ctx.clientAddress ?? 'unknown' });
    ctx.bot = token.virtualAgent;
    responseHeaders.set('access_token', token.accessToken);
    return ok(4300, {
      access_token: token.accessToken,
      token_type: 'access_token' as const,
      expires_in: token.expiresIn,
      expires_at: token.expiresAt.toISOString(),
    });
  },
});
