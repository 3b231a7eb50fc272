import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { agentProfileSchema } from '@/contracts/agent/schemas';
import type { Db } from '@/db/client';
import { agentLogins, teamMemberships, teams, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { displayNameOf } from './display-name';

export type AgentProfile = z.infer<typeof agentProfileSchema>;

/** The signed-in person as the workspace shows them: availability, capacity and teams. */
export async function getAgentProfile(db: Db, { accountId, userId }: { accountId: number; userId: number }): Promise<AgentProfile> {
  const [user] = await db
    .select({
      id: users.id,
      loginId: users.loginId,
      email: agentLogins.email,
      kind: users.kind,
      availability: users.availability,
      capacity: users.capacity,
      name: users.name,
      displayName: users.displayName,
    })
    .from(users)
    .innerJoin(agentLogins, eq(agentLogins.userId, users.id))
    .where(and(eq(users.id, userId), eq(users.accountId, accountId)));
  if (!user || user.kind === 'virtual_agent') throw new ApiError(2080);
  const myTeams = await db
    .select({ id: teams.id, name: teams.name })
    .from(teamMemberships)
    .innerJoin(teams, eq(teams.id, teamMemberships.teamId))
    .where(eq(teamMemberships.userId, userId))
    .orderBy(asc(teams.name));
  return {
    user_id: user.id,
    login_id: user.loginId,
    email: user.email,
    kind: user.kind,
    availability: user.availability,
    capacity: user.capacity,
    display_name: displayNameOf(user),
    teams: myTeams,
  };
}
