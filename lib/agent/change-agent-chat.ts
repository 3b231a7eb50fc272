import type { z } from 'zod';
import type { agentTagsBodySchema, agentTransferBodySchema } from '@/contracts/agent/schemas';
import type { Db } from '@/db/client';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { transferChat } from '@/lib/chats/transfer-chat';
import { updateChat } from '@/lib/chats/update-chat';
import { ApiError } from '@/platform/errors';
import { asAgentWrite, requireTeamChat } from './agent-scope';

/**
 * The person's changes to a chat they hold go through the bot API's own writers, with the person
 * as the actor: `updateChat` (tags, close, hand to a person or a VA) and `transferChat` (to a team
 * or a skill). So the state rules (chat-transition.ts) and what the VAs are told are the same as
 * for every other change: a VA given the chat gets `chat.assigned`, and a chat the person does not
 * hold is refused (2086).
 */
export async function tagAgentChat(
  db: Db,
  { agent, chatId, body }: { agent: AgentAuth; chatId: string; body: z.infer<typeof agentTagsBodySchema> },
): Promise<void> {
  if (!body.add_tags?.length && !body.remove_tags?.length) {
    throw new ApiError(2000, { detail: 'send add_tags or remove_tags', errors: [{ field: '(body)', message: 'no tag change' }] });
  }
  const { teamId } = await requireTeamChat(db, agent, chatId);
  await asAgentWrite(chatId, () =>
    updateChat(db, { accountId: agent.accountId, chatId, teamId, patch: body, actorUserId: agent.userId, actorLoginId: agent.loginId }),
  );
}

export async function closeAgentChat(
  db: Db,
  { agent, chatId, outcome }: { agent: AgentAuth; chatId: string; outcome?: string },
): Promise<void> {
  const { teamId } = await requireTeamChat(db, agent, chatId);
  await asAgentWrite(chatId, () =>
    updateChat(db, {
      accountId: agent.accountId,
      chatId,
      teamId,
      patch: { status: 'closed', outcome },
      actorUserId: agent.userId,
      actorLoginId: agent.loginId,
    }),
  );
}

/**
 * Transfer to a team's queue (`team_id`, with `skill_name` to a skill of it), or straight to a
 * person or back to a virtual agent (`assignee`, a login ID): exactly one of the two.
 */
export async function transferAgentChat(
  db: Db,
  { agent, chatId, body }: { agent: AgentAuth; chatId: string; body: z.infer<typeof agentTransferBodySchema> },
): Promise<void> {
  const toTeam = body.team_id !== undefined;
  const toUser = body.assignee !== undefined;
  if (toTeam === toUser) {
    throw new ApiError(2000, {
      detail: 'send team_id (with an optional skill_name) or assignee',
      errors: [{ field: toTeam ? 'assignee' : 'team_id', message: toTeam ? 'not with team_id' : 'team_id or assignee is required' }],
    });
  }
  if (body.skill_name !== undefined && !toTeam) {
    throw new ApiError(2000, { detail: 'skill_name needs team_id', errors: [{ field: 'skill_name', message: 'requires team_id' }] });
  }
  const { teamId } = await requireTeamChat(db, agent, chatId);
  await asAgentWrite(chatId, async () => {
    if (body.team_id !== undefined) {
      await transferChat(db, {
        accountId: agent.accountId,
        chatId,
        teamId: body.team_id,
        skillName: body.skill_name,
        actorUserId: agent.userId,
        actorLoginId: agent.loginId,
      });
    } else {
      await updateChat(db, {
        accountId: agent.accountId,
        chatId,
        teamId,
        patch: { assignee: body.assignee },
        actorUserId: agent.userId,
        actorLoginId: agent.loginId,
      });
    }
  });
}
