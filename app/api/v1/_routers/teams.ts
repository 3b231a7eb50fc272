import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { listTeams } from '@/lib/teams/list-teams';
import type { BotAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const teamsRouter = tsr.routerWithMiddleware(botContract.teams)<{ bot: BotAuth }>({
  listTeams: async (_, { request }) => ok(4301, await listTeams(await getDb(), { accountId: request.bot.accountId })),
});
