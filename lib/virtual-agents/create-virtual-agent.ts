import { randomBytes } from 'node:crypto';
import type { EventType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { teamMemberships, users, virtualAgents } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { randomToken, sha256 } from '@/platform/util/ids';

export type CreateVirtualAgentInput = {
  accountId: number;
  name: string;
  description: string;
  deliveryMode?: 'webhook' | 'pull';
  webhookUrl: string | null;
  webhookHeaders?: Record<string, string>;
  subscriptions?: EventType[];
  teamId: number;
  customAttributes?: Record<string, string>;
  fallbackTeamId?: number | null;
  fallbackSkill?: string | null;
  replyTimeoutSeconds?: number | null;
  replyTimeoutAction?: 'handover' | 'notify';
};

/** Login IDs of VAs are derived from the name: `va-` and a slug, made unique in the account. */
function vaLoginId(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `va-${slug || 'bot'}`;
}

export function newApiKey(): string {
  return `vak_${randomToken(32)}`;
}

/** Standard Webhooks secrets are standard base64 after `whsec_`; its libraries reject base64url. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Registers a VA: a user of kind `virtual_agent` (always available while enabled) in exactly one
 * team, with its webhook settings. The API key and signing secret are returned once; only the key's
 * hash is stored. Webhook URL and header checks belong to the caller (see the admin API).
 */
export async function createVirtualAgent(db: Db, input: CreateVirtualAgentInput) {
  const apiKey = newApiKey();
  const signingSecret = newSigningSecret();
  const loginId = vaLoginId(input.name);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        accountId: input.accountId,
        kind: 'virtual_agent',
        loginId,
        name: input.name,
        availability: 'available',
        capacity: 1_000_000,
        customAttributes: input.customAttributes ?? {},
      })
      .onConflictDoNothing()
      .returning();
    if (!user)
      throw new ApiError(3004, {
        detail: `a virtual agent named "${input.name}" (login ${loginId}) exists`,
        errors: [{ field: 'name', message: 'already in use' }],
      });
    await tx.insert(teamMemberships).values({ teamId: input.teamId, userId: user.id });
    const [va] = await tx
      .insert(virtualAgents)
      .values({
        userId: user.id,
        accountId: input.accountId,
        description: input.description,
        teamId: input.teamId,
        deliveryMode: input.deliveryMode ?? 'webhook',
        webhookUrl: input.webhookUrl,
        webhookHeaders: input.webhookHeaders ?? {},
        subscriptions: input.subscriptions ?? ['chat.assigned', 'message.received'],
        apiKeyHash: sha256(apiKey),
        apiKeyPrefix: apiKey.slice(0, 8),
        signingSecret,
        fallbackTeamId: input.fallbackTeamId ?? null,
        fallbackSkill: input.fallbackSkill ?? null,
        replyTimeoutSeconds: input.replyTimeoutSeconds ?? null,
        replyTimeoutAction: input.replyTimeoutAction ?? 'handover',
      })
      .returning();
    return { user, va, apiKey, signingSecret };
  });
}
