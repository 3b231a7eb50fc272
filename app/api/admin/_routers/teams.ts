import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { addSkill } from '@/lib/teams/add-skill';
import { createTeam } from '@/lib/teams/create-team';
import { listSkills } from '@/lib/teams/list-skills';
import { removeSkill } from '@/lib/teams/remove-skill';
import { loadTeamOrFail, loadTeams } from '@/lib/teams/team-view';
import { updateTeam } from '@/lib/teams/update-team';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const teamsRouter = tsr.routerWithMiddleware(adminContract.teams)<{ admin: AdminAuth }>({
  listTeams: async (_, { request }) => ok(4400, await loadTeams(await getDb(), { accountId: request.admin.accountId })),
  createTeam: async ({ body }, { request }) => {
    const { accountId } = request.admin;
    const db = await getDb();
    const team = await createTeam(db, { accountId, name: body.name, autoAssign: body.auto_assign, skillNames: body.skills });
    return ok(4401, await loadTeamOrFail(db, { accountId, teamId: team.id }));
  },
  updateTeam: async ({ params, body }, { request }) =>
    ok(4400, await updateTeam(await getDb(), { accountId: request.admin.accountId, teamId: params.id, patch: body })),
  addSkill: async ({ params, body }, { request }) =>
    ok(4401, await addSkill(await getDb(), { accountId: request.admin.accountId, teamId: params.id, name: body.name })),
  removeSkill: async ({ params }, { request }) => {
    await removeSkill(await getDb(), { accountId: request.admin.accountId, teamId: params.id, skillId: params.skill_id });
    return ok(4400, null);
  },
  listSkills: async (_, { request }) => ok(4400, await listSkills(await getDb(), { accountId: request.admin.accountId })),
});
