import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { botAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { listTeams } from '@/lib/teams/list-teams';

export const teamsRouter = tsr.router(botContract.teams, {
  listTeams: async () => ok(4301, await listTeams(await getDb(), { accountId: botAuth().accountId })),
});
