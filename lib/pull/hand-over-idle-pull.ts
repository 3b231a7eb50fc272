import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { chats, events } from '@/db/schema';
import { env } from '@/env';
import { handOverToFallback } from '@/lib/chats/hand-over-to-fallback';
import { lockChat } from '@/lib/chats/lock-chat';
import { isOpenChat } from '@/lib/chats/open-chats';
import { retryDelaysMs } from '@/lib/events/schedule';
import { withOutbox } from '@/lib/events/with-outbox';
import { logger } from '@/platform/util/logger';
import { rowsOf } from '@/platform/util/rows-of';

/** PULL_IDLE_FALLBACK_SECONDS, or the webhook retry schedule's total when unset. */
function pullIdleFallbackSeconds(): number {
  const set = env().PULL_IDLE_FALLBACK_SECONDS;
  if (set !== undefined) return set;
  return Math.max(60, Math.round(retryDelaysMs().reduce((a, b) => a + b, 0) / 1000));
}

type IdleVa = { va: number; account: number; team_id: number; team_name: string; skill: string | null; login_id: string };

/**
 * The `pull` VAs with a fallback team that have been idle since before `before`: no read, no open
 * stream refreshed (lib/pull/stream-slots.ts), not switched to pull, not registered since.
 * `virtual_agents` holds one row per bot: read whole.
 */
async function idlePullVas(db: Db, { before }: { before: Date }): Promise<IdleVa[]> {
  return rowsOf<IdleVa>(
    await db.execute(sql`
      select va.user_id as va, va.account_id as account, t.id as team_id, t.name as team_name, va.fallback_skill as skill, u.login_id
      from virtual_agents va
      join users u on u.id = va.user_id
      join teams t on t.id = va.fallback_team_id and t.account_id = va.account_id
      left join event_cursors c on c.virtual_agent_id = va.user_id
      where va.delivery_mode = 'pull'
        and greatest(va.created_at, c.last_read_at, c.pull_since) < ${before.toISOString()}::timestamptz`),
  );
}

/**
 * The open chats the VA holds with an event for it waiting since before `before`: the VA's range of
 * its waiting events older than that (events_account_pending_idx), never the pending events of
 * every VA (a pull VA's wait parked in events_due_idx).
 */
export function idlePullChatsQuery(
  db: Db,
  { accountId, vaUserId, before, limit }: { accountId: number; vaUserId: number; before: Date; limit: number },
) {
  const waiting = db
    .selectDistinct({ chatId: events.chatId })
    .from(events)
    .where(
      and(eq(events.accountId, accountId), eq(events.virtualAgentId, vaUserId), eq(events.status, 'pending'), lt(events.createdAt, before)),
    )
    .as('waiting');
  return db
    .select({ id: chats.id, accountId: chats.accountId })
    .from(waiting)
    .innerJoin(chats, eq(chats.id, waiting.chatId))
    .where(and(eq(chats.assigneeId, vaUserId), isOpenChat))
    .limit(limit);
}

export type IdleHandover = { chatId: string; virtualAgentId: number };

/**
 * Bot-down fallback of `pull` VAs: nothing is POSTed to them, so no attempt can fail; instead a
 * VA that has neither read (GET /events) nor held a stream open for `idleSeconds`, while an event
 * of a chat it holds has waited as long, loses each such chat to its fallback team and skill by
 * the webhook fallback's path (announcement, `chat.unassigned`, its waiting events of the chat
 * superseded, auto-assign). Each chat is its own short transaction that locks it and checks the
 * VA again, so a read that came meanwhile, or another instance sweeping at once, wins.
 */
export async function handOverIdlePullChats(
  db: Db,
  { now = new Date(), idleSeconds = pullIdleFallbackSeconds(), limit = 200 }: { now?: Date; idleSeconds?: number; limit?: number } = {},
): Promise<IdleHandover[]> {
  const before = new Date(now.getTime() - idleSeconds * 1000);
  const done: IdleHandover[] = [];
  for (const va of await idlePullVas(db, { before })) {
    const due = await idlePullChatsQuery(db, { accountId: va.account, vaUserId: va.va, before, limit: limit - done.length });
    for (const { id, accountId } of due) {
      try {
        const moved = await withOutbox(db, async (tx) => {
          const chat = await lockChat(tx, { accountId, chatId: id });
          if (chat.assigneeId !== va.va || chat.status === 'closed') return false;
          const [still] = rowsOf<{ idle: boolean }>(
            await tx.execute(sql`
              select va.delivery_mode = 'pull' and va.fallback_team_id = ${va.team_id}
                and greatest(va.created_at, c.last_read_at, c.pull_since) < ${before.toISOString()}::timestamptz as idle
              from virtual_agents va left join event_cursors c on c.virtual_agent_id = va.user_id
              where va.user_id = ${va.va}`),
          );
          if (!still?.idle) return false;
          const why =
            `Virtual agent ${va.login_id} has not read its events for over ${idleSeconds} s while this chat's events waited; ` +
            `chat transferred to ${va.team_name}${va.skill ? ` / ${va.skill}` : ''}.`;
          await handOverToFallback(tx, {
            accountId,
            chat,
            vaUserId: va.va,
            teamId: va.team_id,
            skill: va.skill,
            why,
            reason: 'bot_down',
            now,
          });
          return true;
        });
        if (moved) {
          logger.info('pull VA idle: chat handed to its fallback team', { chatId: id, virtualAgentId: va.va });
          done.push({ chatId: id, virtualAgentId: va.va });
        }
      } catch (err) {
        logger.error('bot-down fallback of a pull VA could not be applied', { chatId: id, err });
      }
    }
    if (done.length >= limit) break;
  }
  return done;
}
