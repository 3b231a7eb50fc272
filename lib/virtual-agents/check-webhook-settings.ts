import { and, eq } from 'drizzle-orm';
import type { EventType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { skills } from '@/db/schema';
import { requireAccountTeam } from '@/lib/teams/check-references';
import { checkStaticHeaders, checkWebhookUrl } from '@/lib/webhooks/url-policy';
import { ApiError, describeFields } from '@/platform/errors';

/** The URL as checked (normalised), or 3007 with the policy's reason, on `webhook_url`. */
export async function acceptWebhookUrl(raw: string): Promise<string> {
  const verdict = await checkWebhookUrl(raw);
  if (!verdict.ok) throw new ApiError(3007, { detail: verdict.reason, errors: [{ field: 'webhook_url', message: verdict.reason }] });
  return verdict.url.href;
}

/** Static headers the delivery may add; reserved or malformed ones are 2000, one error per header. */
export function acceptWebhookHeaders(headers: Record<string, string>): Record<string, string> {
  const errors = checkStaticHeaders(headers);
  if (errors.length) throw new ApiError(2000, { detail: describeFields(errors), errors });
  return headers;
}

export function uniqueSubscriptions(subscriptions: EventType[]): EventType[] {
  return [...new Set(subscriptions)];
}

/** A fallback skill needs a fallback team and must be one of its skills. */
export async function checkFallback(
  tx: Db,
  { accountId, teamId, skill, teamChanged }: { accountId: number; teamId: number | null; skill: string | null; teamChanged: boolean },
): Promise<void> {
  if (teamId !== null && teamChanged) await requireAccountTeam(tx, { accountId, teamId, field: 'fallback_team_id' });
  if (skill === null) return;
  if (teamId === null) {
    throw new ApiError(2000, {
      detail: 'fallback_skill needs fallback_team_id',
      errors: [{ field: 'fallback_skill', message: 'needs fallback_team_id' }],
    });
  }
  const [found] = await tx
    .select({ id: skills.id })
    .from(skills)
    .where(and(eq(skills.teamId, teamId), eq(skills.name, skill)));
  if (!found)
    throw new ApiError(2034, {
      detail: `"${skill}" in team ${teamId}`,
      errors: [{ field: 'fallback_skill', message: 'no such skill in the fallback team' }],
    });
}

/** 2000 on `webhook_url`: `webhook` delivery mode needs an address. */
export function missingWebhookUrl(): ApiError {
  return new ApiError(2000, {
    detail: 'webhook_url (required in webhook delivery mode)',
    errors: [{ field: 'webhook_url', message: 'Required in webhook delivery mode' }],
  });
}

/** A reply budget that hands chats over needs somewhere to hand them: the fallback team. */
export function checkReplyBudget({
  seconds,
  action,
  fallbackTeamId,
}: {
  seconds: number | null;
  action: 'handover' | 'notify';
  fallbackTeamId: number | null;
}): void {
  if (seconds === null || action !== 'handover' || fallbackTeamId !== null) return;
  throw new ApiError(2000, {
    detail: 'reply_timeout_action handover needs fallback_team_id (or choose notify)',
    errors: [{ field: 'reply_timeout_action', message: 'handover needs fallback_team_id' }],
  });
}
