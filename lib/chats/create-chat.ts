import { sql } from 'drizzle-orm';
import type { Chat, CreateChatBody } from '@/contracts/bot/schemas/chat';
import type { Db } from '@/db/client';
import { chats, customers, messages } from '@/db/schema';
import { assignQueuedChat } from '@/lib/chats/auto-assign';
import { chooseTeam } from '@/lib/chats/choose-team';
import { toMessageView } from '@/lib/chats/message-view';
import { normalizeMessage } from '@/lib/chats/normalize-message';
import { enqueueEvent } from '@/lib/events/enqueue-event';
import { noteChatChange, withOutbox } from '@/lib/events/with-outbox';
import { ApiError, describeFields, type FieldError } from '@/platform/errors';
import { type Idempotency, withIdempotency } from '@/platform/idempotency/with-idempotency';
import { newChatId, newTraceId } from '@/platform/util/ids';
import { type Assignee, requireSkill, resolveAssignee, teamForAssignee } from './assignment';
import { loadChat } from './chat-view';
import { eventChatOf, requireAsset, requireTeam } from './lock-chat';
import { startReplyClockOnAssign } from './reply-clock';

export type CreateChatInput = {
  accountId: number;
  actorLoginId: string;
  body: CreateChatBody;
  idempotency?: Idempotency;
  /** A replay's chat (lib/replay, in a sandbox account): its events carry the run's marker. */
  replayRunId?: string;
};

/** Creates a chat with its customer and first messages; a VA assignee receives `chat.assigned`. */
export async function createChat(
  db: Db,
  { accountId, actorLoginId, body, idempotency, replayRunId }: CreateChatInput,
): Promise<{ chat: Chat; replayed: boolean }> {
  checkChannelFields(body);
  const out = await withOutbox(db, (tx) =>
    withIdempotency(tx, { accountId, idempotency }, async () => {
      await requireAsset(tx, { accountId, assetId: body.asset_id, channel: body.channel });
      const bodies = (body.messages ?? []).map((m, i) => normalizeMessage(m, body.channel, `messages.${i}`));

      let assignee: Assignee | null = null;
      let teamId: number | null = null;
      let skill: string | null = body.skill ?? null;
      if (body.team_id !== undefined) teamId = (await requireTeam(tx, { accountId, teamId: body.team_id })).id;
      if (body.assignee !== undefined) {
        assignee = await resolveAssignee(tx, { accountId, loginId: body.assignee });
        teamId = teamForAssignee(assignee, teamId);
      }
      if (teamId === null) {
        const routed = await chooseTeam(tx, {
          accountId,
          facts: {
            channel: body.channel,
            assetId: body.asset_id,
            customer: { destinationId: body.customer.destination_id, name: body.customer.name ?? '' },
            otherDetails: body.other_details ?? {},
            routeParams: body.route_params ?? {},
          },
        });
        teamId = routed.teamId;
        skill ??= routed.skill;
      }
      if (skill) await requireSkill(tx, { teamId, name: skill, field: 'skill' });

      const [customer] = await tx
        .insert(customers)
        .values({ accountId, channel: body.channel, destinationId: body.customer.destination_id, name: body.customer.name ?? '' })
        .onConflictDoUpdate({
          target: [customers.accountId, customers.channel, customers.destinationId],
          // A name given now wins; an omitted one keeps what we knew.
          set: { name: sql`coalesce(nullif(excluded.name, ''), ${customers.name})`, updatedAt: sql`now()` },
        })
        .returning({ id: customers.id });

      const chatId = newChatId();
      const [chat] = await tx
        .insert(chats)
        .values({
          id: chatId,
          accountId,
          teamId,
          skill,
          status: assignee ? 'picked' : 'queued',
          channel: body.channel,
          assetId: body.asset_id,
          customerId: customer.id,
          assigneeId: assignee?.id ?? null,
          aliasId: body.alias_id ?? null,
          subject: body.subject ?? null,
          threadId: body.thread_id ?? null,
          browserFingerprint: body.browserfingerprint ?? null,
          tags: body.tags ?? [],
          otherDetails: dropNulls(body.other_details ?? {}),
          routeParams: body.route_params ?? {},
          replayRunId: replayRunId ?? null,
        })
        .returning();
      // A new chat is a change the live views hear of (a queued one lands in the workspace's queue).
      noteChatChange(tx, chatId, accountId);

      const base = Date.now();
      const inserted = bodies.length
        ? await tx
            .insert(messages)
            .values(
              bodies.map((b, i) => ({
                chatId,
                accountId,
                transid: newTraceId(),
                type: body.messages![i].type,
                body: b,
                authorLoginId: body.messages![i].type === 'inbound' ? null : actorLoginId,
                sentAt: body.messages![i].timestamp ? new Date(body.messages![i].timestamp!) : new Date(base + i),
              })),
            )
            .returning()
        : [];

      if (!assignee) {
        // Queued in a team with auto-assign on: hand it to a ready member now, if one has a seat.
        await assignQueuedChat(tx, { accountId, chatId, teamId, skill });
      }
      if (assignee?.kind === 'virtual_agent') {
        // Announcements are for agents: the event carries the last message with the customer.
        const last = inserted.filter((m) => m.type !== 'announcement').at(-1);
        await startReplyClockOnAssign(tx, { chatId, lastMessage: last ?? null });
        await enqueueEvent(tx, {
          accountId,
          chat: eventChatOf({ ...chat, destinationId: body.customer.destination_id }),
          vaUserId: assignee.id,
          cause: { type: 'chat.assigned', lastMessage: last ? toMessageView(last) : null },
        });
      }
      const view = await loadChat(tx, { accountId, chatId });
      if (!view) throw new ApiError(4108);
      return view;
    }),
  );
  return { chat: out.result, replayed: out.replayed };
}

function checkChannelFields(body: CreateChatBody) {
  const errors: FieldError[] = [];
  if (body.subject !== undefined && body.channel !== 'email') errors.push({ field: 'subject', message: 'only on the email channel' });
  for (const f of ['thread_id', 'browserfingerprint'] as const) {
    if (body[f] !== undefined && body.channel !== 'livechat') errors.push({ field: f, message: 'only on the livechat channel' });
  }
  if (errors.length) throw new ApiError(2000, { detail: describeFields(errors), errors });
}

export function dropNulls(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([, v]) => v !== null));
}
