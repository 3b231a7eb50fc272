import { and, asc, eq, inArray, isNull, ne, not, or, sql } from 'drizzle-orm';
import { chats, customers, skills, teamMemberships, teams, userSkills, users, virtualAgents } from '@/db/schema';
import { assignedCause } from '@/lib/chats/assignment';
import { openChatCountOf, openChatLoad, openChatLoads } from '@/lib/chats/open-chats';
import { startReplyClockOnAssign } from '@/lib/chats/reply-clock';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import { noteChatChange, type OutboxTx } from '@/lib/events/with-outbox';
import { closedToVa } from '@/lib/handovers/closed-to-va';
import { underLoopLimit } from '@/lib/handovers/loop-limit';

type Candidate = { id: number; loginId: string; kind: 'agent' | 'manager' | 'virtual_agent'; capacity: number };

/**
 * A webhook VA whose webhook is not answering: it failed since its last delivery
 * (`webhook_failing_since`) or was stopped by a 410. Such a VA still takes chats, but only when
 * nobody else ready has a seat: a stopped bot beside a running one (the demo's Demo Bot beside a
 * newcomer's own VA) must not be handed half the new chats, where customers would wait unanswered.
 */
const webhookDown = sql<boolean>`exists (select 1 from ${virtualAgents} where ${virtualAgents.userId} = ${users.id} and ${virtualAgents.deliveryMode} = 'webhook' and (${virtualAgents.webhookFailingSince} is not null or ${virtualAgents.webhookDisabledAt} is not null))`;

/** Members who can take work: enabled, and available (a VA is available while enabled). */
const isReady = and(eq(users.enabled, true), or(eq(users.kind, 'virtual_agent'), eq(users.availability, 'available')));

/**
 * Auto-assign for one queued, unassigned chat of a team whose toggle is on: the ready member who
 * has the chat's skill (if any) and the fewest open chats below their capacity, a VA whose webhook
 * is down (`webhookDown`) only when nobody else can; ties go to the lowest user id, so the outcome
 * is deterministic. A chat handed to people (its latest handover, not handed back: `closedToVa`)
 * goes to people only, and a chat a VA transferred away never straight back to that VA. Returns the new assignee, or null when
 * nobody can take the chat (it stays queued).
 *
 * A pick that leaves more than AMPLE_SEATS free (a VA's) is made from the loads as last committed,
 * without a lock, so a bot's team starts its chats side by side. Otherwise seats are counted under
 * lock: every candidate's row is locked first, in one statement and in id order, then the loads are
 * read. Two assignments therefore cannot both take a user's last seat, and cannot deadlock: each
 * transaction takes all its user locks at once, in the same order.
 * `releasingUserId` is the user whose seat the same transaction frees and will offer with
 * `fillFreeSeats` afterwards (a re-queue or transfer): it is locked in that same statement, so the
 * transaction never asks for a user lock while holding others.
 */
export async function assignQueuedChat(
  tx: OutboxTx,
  {
    accountId,
    chatId,
    teamId,
    skill,
    releasingUserId = null,
    onlyVirtualAgentsNewToChat = false,
  }: {
    accountId: number;
    chatId: string;
    teamId: number;
    skill: string | null;
    releasingUserId?: number | null;
    /** A re-route (reroute-chat.ts): VAs only, and none that was ever given the chat (none with events of it). */
    onlyVirtualAgentsNewToChat?: boolean;
  },
): Promise<Candidate | null> {
  const [team] = await tx
    .select({ autoAssign: teams.autoAssign })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.accountId, accountId)));
  if (!team?.autoAssign) return null;
  const withSkill = skill
    ? inArray(
        users.id,
        tx
          .select({ id: userSkills.userId })
          .from(userSkills)
          .innerJoin(skills, eq(skills.id, userSkills.skillId))
          .where(and(eq(skills.teamId, teamId), eq(skills.name, skill))),
      )
    : undefined;
  const isCandidate = and(
    inArray(users.id, tx.select({ id: teamMemberships.userId }).from(teamMemberships).where(eq(teamMemberships.teamId, teamId))),
    isReady,
    withSkill,
    underLoopLimit(chatId, users.id),
    or(ne(users.kind, 'virtual_agent'), not(closedToVa(chatId, users.id))),
    onlyVirtualAgentsNewToChat
      ? and(
          eq(users.kind, 'virtual_agent'),
          // Qualified by hand: drizzle writes bare column names in a select list, where this runs too.
          sql`not exists (select 1 from "events" as "ev" where "ev"."chat_id" = ${chatId} and "ev"."virtual_agent_id" = "users"."id")`,
        )
      : undefined,
  );
  const fields = {
    id: users.id,
    loginId: users.loginId,
    kind: users.kind,
    capacity: users.capacity,
    candidate: sql<boolean>`${isCandidate}`,
    down: webhookDown,
  };
  const assign = async (chosen: Candidate) => {
    const assignee: Candidate = { id: chosen.id, loginId: chosen.loginId, kind: chosen.kind, capacity: chosen.capacity };
    await assignChat(tx, { accountId, chatId, user: assignee });
    return assignee;
  };

  if (releasingUserId === null) {
    // First without locks: the candidates and their loads as last committed. A pick with ample
    // seats left (a VA's million, not a person's few) needs no lock; see AMPLE_SEATS.
    const seen = await tx
      .select({
        ...fields,
        load: openChatCountOf(tx, users.id),
      })
      .from(users)
      .where(isCandidate)
      .orderBy(asc(users.id));
    if (!seen.length) return null;
    const pick = choose(seen, new Map(seen.map((u) => [u.id, u.load])));
    if (pick && pick.capacity - pick.load > AMPLE_SEATS) return assign(pick);
  }

  const locked = await tx
    .select(fields)
    .from(users)
    .where(releasingUserId === null ? isCandidate : or(isCandidate, eq(users.id, releasingUserId)))
    .orderBy(asc(users.id))
    .for('no key update');
  const candidates = locked.filter((u) => u.candidate);
  if (!candidates.length) return null;
  // Read after the locks are granted, so the loads include every assignment committed before.
  const loads = await openChatLoads(
    tx,
    candidates.map((c) => c.id),
  );
  const chosen = choose(candidates, new Map(loads.map((l) => [l.id as number, l.load])));
  return chosen ? assign(chosen) : null;
}

/**
 * Seats that must stay free after a pick for it to take no lock on its assignee. Counting seats
 * under a lock held to the commit made every new chat of a team wait for the one before (100 chats
 * started at once on a bot's team: 200 ms of waiting each on average), although a VA's capacity
 * (1,000,000 by default) is never near. Without the lock, the loads read miss only the
 * assignments other transactions have made and not yet committed, each of which holds a database
 * connection: to take a seat past capacity, more than this many of them would have to be in flight
 * to one user at once. Near capacity (every person, whose capacity is a few chats) the pick is made
 * again under the lock, exactly as before.
 */
const AMPLE_SEATS = 10_000;

/** Who takes the chat: a VA whose webhook is down last, then the fewest open chats below capacity, then the lowest id. */
function choose<T extends { id: number; capacity: number; down: boolean }>(candidates: T[], loadById: Map<number, number>): T | undefined {
  const load = (c: T) => loadById.get(c.id) ?? 0;
  return candidates
    .filter((c) => load(c) < c.capacity)
    .sort((x, y) => Number(x.down) - Number(y.down) || load(x) - load(y) || x.id - y.id)[0];
}

/**
 * Gives a user who has free seats the oldest queued chats they can take, in the auto-assign
 * teams they belong to (after they become available, or a chat of theirs is released/closed).
 * A VA is not given a chat handed to people, nor one it transferred away (`closedToVa`).
 * Queued chats another transaction is assigning are skipped, not waited for.
 */
export async function fillFreeSeats(tx: OutboxTx, { accountId, userId }: { accountId: number; userId: number }): Promise<void> {
  const [user] = await tx
    .select({ id: users.id, loginId: users.loginId, kind: users.kind, capacity: users.capacity })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.accountId, accountId), isReady))
    .for('no key update');
  if (!user) return;
  const free = user.capacity - (await openChatLoad(tx, user.id));
  if (free <= 0) return;
  const myTeams = tx.select({ id: teamMemberships.teamId }).from(teamMemberships).where(eq(teamMemberships.userId, user.id));
  const mySkills = tx
    .select({ name: skills.name })
    .from(userSkills)
    .innerJoin(skills, eq(skills.id, userSkills.skillId))
    .where(and(eq(userSkills.userId, user.id), eq(skills.teamId, chats.teamId)));
  const queued = await tx
    .select({ id: chats.id })
    .from(chats)
    .innerJoin(teams, eq(teams.id, chats.teamId))
    .where(
      and(
        eq(chats.accountId, accountId),
        eq(chats.status, 'queued'),
        isNull(chats.assigneeId),
        eq(teams.autoAssign, true),
        inArray(chats.teamId, myTeams),
        or(isNull(chats.skill), inArray(chats.skill, mySkills)),
        user.kind === 'virtual_agent' ? and(underLoopLimit(chats.id, user.id), not(closedToVa(chats.id, user.id))) : undefined,
      ),
    )
    .orderBy(asc(chats.createdAt), asc(chats.id))
    .limit(Math.min(free, 1000))
    .for('update', { of: chats, skipLocked: true });
  for (const chat of queued) await assignChat(tx, { accountId, chatId: chat.id, user });
}

async function assignChat(
  tx: OutboxTx,
  { accountId, chatId, user }: { accountId: number; chatId: string; user: Candidate },
): Promise<void> {
  const [chat] = await tx
    .update(chats)
    .set({ assigneeId: user.id, status: 'picked', autoAssigned: true, updatedAt: new Date() })
    .where(eq(chats.id, chatId))
    .returning();
  noteChatChange(tx, chatId, accountId);
  if (user.kind !== 'virtual_agent') return;
  const cause = await assignedCause(tx, { chatId: chat.id, vaUserId: user.id });
  await startReplyClockOnAssign(tx, { chatId: chat.id, lastMessage: cause.lastMessage });
  const [customer] = await tx.select({ destinationId: customers.destinationId }).from(customers).where(eq(customers.id, chat.customerId));
  await enqueueEvent(tx, {
    accountId,
    chat: {
      id: chat.id,
      channel: chat.channel,
      assetId: chat.assetId,
      teamId: chat.teamId,
      destinationId: customer.destinationId,
      threadId: chat.threadId,
      browserFingerprint: chat.browserFingerprint,
      subject: chat.subject,
      skill: chat.skill,
    },
    vaUserId: user.id,
    cause,
  });
}
