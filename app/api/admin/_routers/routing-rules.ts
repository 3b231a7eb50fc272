import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { setDefaultTeam } from '@/lib/accounts/set-default-team';
import { createRoutingRule } from '@/lib/routing/create-routing-rule';
import { deleteRoutingRule } from '@/lib/routing/delete-routing-rule';
import { listRoutingRules } from '@/lib/routing/list-routing-rules';
import { updateRoutingRule } from '@/lib/routing/update-routing-rule';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const routingRulesRouter = tsr.routerWithMiddleware(adminContract.routingRules)<{ admin: AdminAuth }>({
  listRoutingRules: async (_, { request }) => ok(4400, await listRoutingRules(await getDb(), { accountId: request.admin.accountId })),
  createRoutingRule: async ({ body }, { request }) =>
    ok(4401, await createRoutingRule(await getDb(), { accountId: request.admin.accountId, body })),
  updateRoutingRule: async ({ params, body }, { request }) =>
    ok(4400, await updateRoutingRule(await getDb(), { accountId: request.admin.accountId, ruleId: params.id, patch: body })),
  deleteRoutingRule: async ({ params }, { request }) => {
    await deleteRoutingRule(await getDb(), { accountId: request.admin.accountId, ruleId: params.id });
    return ok(4400, null);
  },
  setDefaultTeam: async ({ body }, { request }) =>
    ok(4400, await setDefaultTeam(await getDb(), { accountId: request.admin.accountId, teamId: body.team_id })),
});
