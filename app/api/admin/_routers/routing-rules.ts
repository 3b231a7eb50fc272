import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { setDefaultTeam } from '@/lib/accounts/set-default-team';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { createRoutingRule } from '@/lib/routing/create-routing-rule';
import { deleteRoutingRule } from '@/lib/routing/delete-routing-rule';
import { listRoutingRules } from '@/lib/routing/list-routing-rules';
import { updateRoutingRule } from '@/lib/routing/update-routing-rule';

export const routingRulesRouter = tsr.router(adminContract.routingRules, {
  listRoutingRules: async () => ok(4400, await listRoutingRules(await getDb(), { accountId: adminAuth().accountId })),
  createRoutingRule: async ({ body }) => ok(4401, await createRoutingRule(await getDb(), { accountId: adminAuth().accountId, body })),
  updateRoutingRule: async ({ params, body }) =>
    ok(4400, await updateRoutingRule(await getDb(), { accountId: adminAuth().accountId, ruleId: params.id, patch: body })),
  deleteRoutingRule: async ({ params }) => {
    await deleteRoutingRule(await getDb(), { accountId: adminAuth().accountId, ruleId: params.id });
    return ok(4400, null);
  },
  setDefaultTeam: async ({ body }) =>
    ok(4400, await setDefaultTeam(await getDb(), { accountId: adminAuth().accountId, teamId: body.team_id })),
});
