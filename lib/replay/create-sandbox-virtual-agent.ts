import { and, asc, eq } from 'drizzle-orm';
import type { CreateSandboxVirtualAgentBody } from '@/contracts/admin/schemas/replay';
import { EVENT_TYPES } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { teams } from '@/db/schema';
import { acceptWebhookHeaders, acceptWebhookUrl, missingWebhookUrl } from '@/lib/virtual-agents/check-webhook-settings';
import { createVirtualAgent } from '@/lib/virtual-agents/create-virtual-agent';
import { ensureSandbox } from './ensure-sandbox';

/**
 * A VA in the account's replay sandbox: the bot under test runs with its API key and signing
 * secret (answered once), so whatever it does lands in the sandbox. Its webhook settings are
 * checked as a live VA's are. It sits in the sandbox's copy of `team_name` (default: the first team).
 */
export async function createSandboxVirtualAgent(db: Db, { accountId, body }: { accountId: number; body: CreateSandboxVirtualAgentBody }) {
  const deliveryMode = body.delivery_mode ?? 'webhook';
  if (deliveryMode === 'webhook' && body.webhook_url === undefined) throw missingWebhookUrl();
  const webhookUrl = body.webhook_url === undefined ? null : await acceptWebhookUrl(body.webhook_url);
  const webhookHeaders = acceptWebhookHeaders(body.webhook_headers ?? {});
  const sandbox = await ensureSandbox(db, { accountId });
  const teamId = await sandboxTeam(db, { sandboxId: sandbox.id, name: body.team_name });
  const made = await createVirtualAgent(db, {
    accountId: sandbox.id,
    name: body.name,
    description: 'Replay sandbox VA',
    deliveryMode,
    webhookUrl,
    webhookHeaders,
    subscriptions: [...EVENT_TYPES],
    teamId,
  });
  return {
    id: made.user.id,
    login_id: made.user.loginId,
    name: made.user.name,
    delivery_mode: deliveryMode,
    webhook_url: webhookUrl,
    sandbox_account_id: sandbox.id,
    api_key: made.apiKey,
    signing_secret: made.signingSecret,
  };
}

async function sandboxTeam(db: Db, { sandboxId, name }: { sandboxId: number; name?: string }): Promise<number> {
  const [team] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.accountId, sandboxId), name === undefined ? undefined : eq(teams.name, name)))
    .orderBy(asc(teams.id))
    .limit(1);
  if (team) return team.id;
  const [made] = await db
    .insert(teams)
    .values({ accountId: sandboxId, name: name ?? 'Replay' })
    .onConflictDoNothing()
    .returning({ id: teams.id });
  return made.id;
}
