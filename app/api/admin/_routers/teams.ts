import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { adminAuth } from '@/lib/http/request-context';
import { ok } from '@/lib/http/respond';
import { addSkill } from '@/lib/teams/add-skill';
import { createTeam } from '@/lib/teams/create-team';
import { listSkills } from '@/lib/teams/list-skills';
import { removeSkill } from '@/lib/teams/remove-skill';
import { loadTeamOrFail, loadTeams } from '@/lib/teams/team-view';
import { updateTeam } from '@/lib/teams/update-team';

export const teamsRouter = tsr.router(adminContract.teams, {
  listTeams: async () => ok(4400, await loadTeams(await getDb(), { accountId: adminAuth().accountId })),
  createTeam: async ({ body }) => {
    const { accountId } = adminAuth();
    const db = await getDb();
    const team = await createTeam(db, { accountId, name: body.name, autoAssign: body.auto_assign, skillNames: body.skills });
    return ok(4401, await loadTeamOrFail(db, { accountId, teamId: team.id }));
  },
  updateTeam: async ({ params, body }) =>
    ok(4400, await updateTeam(await getDb(), { accountId: adminAuth().accountId, teamId: params.id, patch: body })),
  addSkill: async ({ params, body }) =>
    ok(4401, await addSkill(await getDb(), { accountId: adminAuth().accountId, teamId: params.id, name: body.name })),
  removeSkill: async ({ params }) => {
    await removeSkill(await getDb(), { accountId: adminAuth().accountId, teamId: params.id, skillId: params.skill_id });
    return ok(4400, null);
  },
  listSkills: async () => ok(4400, await listSkills(await getDb(), { accountId: adminAuth().accountId })),
});
