import { eq } from 'drizzle-orm';
import type { CreateVirtualAgentBody } from '@/contracts/admin/schemas/virtual-agent';
import type { Db } from '@/db/client';
import { userSkills, virtualAgents } from '@/db/schema';
import { requireAccountTeam, resolveSkillNames } from '@/lib/teams/check-references';
import { turnColumnsOf } from '@/lib/turns/turn-settings';
import {
  acceptWebhookHeaders,
  acceptWebhookUrl,
  checkFallback,
  checkReplyBudget,
  missingWebhookUrl,
  uniqueSubscriptions,
} from './check-webhook-settings';
import { createVirtualAgent } from './create-virtual-agent';
import { getVirtualAgentOrFail } from './virtual-agent-view';

/**
 * POST /api/admin/virtual-agents: checks the webhook settings, team, skills (names of the VA's
 * team) and fallback, then registers the VA. The API key and signing secret are in this answer only.
 */
export async function registerVirtualAgent(db: Db, { accountId, body }: { accountId: number; body: CreateVirtualAgentBody }) {
  const deliveryMode = body.delivery_mode ?? 'webhook';
  if (deliveryMode === 'webhook' && body.webhook_url === undefined) throw missingWebhookUrl();
  const webhookUrl = body.webhook_url === undefined ? null : await acceptWebhookUrl(body.webhook_url);
  const webhookHeaders = acceptWebhookHeaders(body.webhook_headers ?? {});
  const turns = turnColumnsOf(body);
  const created = await db.transaction(async (tx) => {
    await requireAccountTeam(tx, { accountId, teamId: body.team_id, field: 'team_id' });
    const skillIds = await resolveSkillNames(tx, { teamId: body.team_id, names: body.skills ?? [], field: 'skills' });
    await checkFallback(tx, { accountId, teamId: body.fallback_team_id ?? null, skill: body.fallback_skill ?? null, teamChanged: true });
    checkReplyBudget({
      seconds: body.reply_timeout_seconds ?? null,
      action: body.reply_timeout_action ?? 'handover',
      fallbackTeamId: body.fallback_team_id ?? null,
    });
    const va = await createVirtualAgent(tx, {
      accountId,
      name: body.name,
      description: body.description,
      deliveryMode,
      webhookUrl,
      webhookHeaders,
      subscriptions: body.subscriptions && uniqueSubscriptions(body.subscriptions),
      teamId: body.team_id,
      customAttributes: body.custom_attributes,
      fallbackTeamId: body.fallback_team_id ?? null,
      fallbackSkill: body.fallback_skill ?? null,
      replyTimeoutSeconds: body.reply_timeout_seconds ?? null,
      replyTimeoutAction: body.reply_timeout_action,
    });
    await tx
      .update(virtualAgents)
      .set({
        ...turns,
        ...(body.max_handovers_per_chat !== undefined && { maxHandoversPerChat: body.max_handovers_per_chat }),
        ...(body.person_request !== undefined && { personRequest: body.person_request }),
      })
      .where(eq(virtualAgents.userId, va.user.id));
    if (skillIds.length) await tx.insert(userSkills).values(skillIds.map((skillId) => ({ userId: va.user.id, skillId })));
    return va;
  });
  const view = await getVirtualAgentOrFail(db, { accountId, id: created.user.id });
  return { ...view, api_key: created.apiKey, signing_secret: created.signingSecret };
}
