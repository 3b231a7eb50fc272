import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { EventType } from '@/contracts/enums';
import type { AdminVirtualAgent } from '@/contracts/schemas/admin-virtual-agent';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { ApiError } from '@/lib/errors';

/** The account's VAs as the admin API shows them: never the API key or the signing secret. */
export async function loadVirtualAgents(
  db: Db,
  { accountId, userIds }: { accountId: number; userIds?: number[] },
): Promise<AdminVirtualAgent[]> {
  const where: SQL[] = [eq(virtualAgents.accountId, accountId)];
  if (userIds) where.push(inArray(virtualAgents.userId, userIds));
  const rows = await db.query.virtualAgents.findMany({
    where: and(...where),
    orderBy: [asc(virtualAgents.userId)],
    columns: { apiKeyHash: false, signingSecret: false, previousApiKeyHash: false, previousSigningSecret: false },
    with: {
      team: { columns: { name: true } },
      user: { with: { skills: { with: { skill: { columns: { name: true } } } } } },
    },
  });
  return rows.map((va) => ({
    id: va.userId,
    login_id: va.user.loginId,
    name: va.user.name,
    description: va.description,
    enabled: va.user.enabled,
    delivery_mode: va.deliveryMode,
    webhook_url: va.webhookUrl,
    webhook_headers: va.webhookHeaders,
    subscriptions: va.subscriptions as EventType[],
    team_id: va.teamId,
    team_name: va.team.name,
    skills: va.user.skills.map((s) => s.skill.name).sort(),
    custom_attributes: va.user.customAttributes,
    fallback_team_id: va.fallbackTeamId,
    fallback_skill: va.fallbackSkill,
    api_key_prefix: va.apiKeyPrefix,
    webhook_disabled: va.webhookDisabledAt
      ? { at: va.webhookDisabledAt.toISOString(), reason: va.webhookDisabledReason ?? 'disabled' }
      : null,
    webhook_failing:
      va.webhookFailingAt && va.webhookFailingSince
        ? { since: va.webhookFailingSince.toISOString(), marked_at: va.webhookFailingAt.toISOString() }
        : null,
    previous_api_key_valid_until: stillValid(va.previousApiKeyExpiresAt),
    previous_signing_secret_valid_until: stillValid(va.previousSigningSecretExpiresAt),
    created_at: va.createdAt.toISOString(),
    updated_at: new Date(Math.max(va.updatedAt.getTime(), va.user.updatedAt.getTime())).toISOString(),
  }));
}

/** An overlap's end while it lasts; null once it is over (the kept key or secret no longer counts). */
function stillValid(until: Date | null): string | null {
  return until && until.getTime() > Date.now() ? until.toISOString() : null;
}

export async function getVirtualAgentOrFail(db: Db, { accountId, id }: { accountId: number; id: number }): Promise<AdminVirtualAgent> {
  const [va] = await loadVirtualAgents(db, { accountId, userIds: [id] });
  if (!va) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
  return va;
}
