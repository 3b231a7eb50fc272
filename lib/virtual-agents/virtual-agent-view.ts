import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AdminVirtualAgent } from '@/contracts/admin/schemas/virtual-agent';
import type { EventType } from '@/contracts/enums';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { encodeCursor } from '@/lib/pull/cursor';
import { ApiError } from '@/platform/errors';
import { rowsOf } from '@/platform/util/rows-of';

type CursorRow = {
  va: number;
  last_read_at: Date | string | null;
  acked_xid: string | number | null;
  acked_id: string | number | null;
  acked_at: Date | string | null;
  streams: string | number;
};
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The pull state of each VA: one row of event_cursors and a count of its live event_streams rows. */
async function loadCursors(db: Db, userIds: number[]): Promise<Map<number, AdminVirtualAgent['event_cursor']>> {
  if (!userIds.length) return new Map();
  const ids = sql.join(
    userIds.map((i) => sql`${i}`),
    sql`, `,
  );
  const rows = rowsOf<CursorRow>(
    await db.execute(sql`
      select va.user_id as va, c.last_read_at, c.acked_xid, c.acked_id, c.acked_at,
        (select count(*) from event_streams s where s.virtual_agent_id = va.user_id and s.seen_at > now() - interval '60 seconds') as streams
      from virtual_agents va left join event_cursors c on c.virtual_agent_id = va.user_id
      where va.user_id in (${ids})`),
  );
  return new Map(
    rows.map((r) => {
      const acked = { xid: Number(r.acked_xid ?? 0), id: Number(r.acked_id ?? 0) };
      return [
        Number(r.va),
        {
          last_read_at: iso(r.last_read_at),
          acknowledged_cursor: acked.xid || acked.id ? encodeCursor(Number(r.va), acked) : null,
          acknowledged_at: iso(r.acked_at),
          open_streams: Number(r.streams),
        },
      ];
    }),
  );
}

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
  const cursors = await loadCursors(
    db,
    rows.map((va) => va.userId),
  );
  const none = { last_read_at: null, acknowledged_cursor: null, acknowledged_at: null, open_streams: 0 };
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
    reply_timeout_seconds: va.replyTimeoutSeconds,
    reply_timeout_action: va.replyTimeoutAction,
    turn_window_ms: va.turnWindowMs,
    turn_window_max_ms: va.turnWindowMaxMs,
    on_new_turn: va.onNewTurn,
    max_handovers_per_chat: va.maxHandoversPerChat,
    person_request: va.personRequest,
    api_key_prefix: va.apiKeyPrefix,
    webhook_disabled: va.webhookDisabledAt
      ? { at: va.webhookDisabledAt.toISOString(), reason: va.webhookDisabledReason ?? 'disabled' }
      : null,
    webhook_failing:
      va.webhookFailingAt && va.webhookFailingSince
        ? { since: va.webhookFailingSince.toISOString(), marked_at: va.webhookFailingAt.toISOString() }
        : null,
    event_cursor: cursors.get(va.userId) ?? none,
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
