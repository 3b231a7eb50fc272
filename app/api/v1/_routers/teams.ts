import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import type { BotAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { listTeams } from '@/lib/teams/list-teams';

export const teamsRouter = tsr.routerWithMiddleware(botContract.teams)<{ bot: BotAuth }>({
  listTeams: async (_, { request }) => ok(4301, await listTeams(await getDb(), { accountId: request.bot.accountId })),
});
