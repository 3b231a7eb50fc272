import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { BotAction, BotTurn, RecordedCustomerMessage, RecordingLine } from '@/contracts/admin/schemas/recording';
import type { MessageInput } from '@/contracts/bot/schemas/message';
import type { Db } from '@/db/client';
import { chats, events, messages, teams } from '@/db/schema';
import { appendMessage } from '@/lib/chats/append-message';
import { createChat } from '@/lib/chats/create-chat';
import { sandboxAsset } from './ensure-sandbox';

export type ReplayTimings = {
  /** After the turn's event was handled (answered 200, or acknowledged when pulled): how long the bot must stay quiet for its turn to be over. */
  settleMs: number;
  /** A turn whose event is still not handled after this long is over anyway (the bot is down or slow). */
  turnTimeoutMs: number;
  /** How often a waiting turn looks at its chat. */
  pollMs: number;
};
export type ReplayTarget = { runId: string; sandboxId: number; vaUserId: number; vaLoginId: string };

type Snapshot = {
  status: string;
  assigneeId: number | null;
  teamId: number;
  skill: string | null;
  tags: string[];
  otherDetails: Record<string, string | number | boolean | null>;
  outcome: string | null;
  updatedAt: Date;
  typing: boolean;
  lastMessageId: number;
  eventStatus: string | null;
};

/**
 * Replays one recorded chat against the sandbox VA: a chat assigned to it with the first turn's
 * messages, then each later turn's messages as the customer's, each once the bot finished the turn
 * before (its event handled and the bot quiet for `settleMs`, or the chat no longer the bot's).
 * Returns the chat as replayed, in the recording format, with what the bot did after each turn.
 */
export async function replayChat(
  db: Db,
  { target, seq, recording, timings }: { target: ReplayTarget; seq: number; recording: RecordingLine; timings: ReplayTimings },
): Promise<RecordingLine> {
  const assetId = await sandboxAsset(db, { sandboxId: target.sandboxId, channel: recording.channel });
  const turns: RecordingLine['turns'] = [];
  let chatId: string | null = null;
  let before: Snapshot | null = null;
  let offer: string | null = null;
  let held = true;
  for (const [i, turn] of recording.turns.entries()) {
    if (!held) {
      turns.push({ customer: turn.customer, bot: null });
      continue;
    }
    const inputs = turn.customer.map((m) => customerInput(m, recording.channel, offer));
    const sentAt = Date.now();
    if (i === 0) {
      const { chat } = await createChat(db, {
        accountId: target.sandboxId,
        actorLoginId: 'replay',
        replayRunId: target.runId,
        body: {
          channel: recording.channel,
          asset_id: assetId,
          customer: { destination_id: recording.customer.destination_id, name: recording.customer.name },
          assignee: target.vaLoginId,
          messages: inputs,
          ...(recording.subject !== undefined && recording.channel === 'email' && { subject: recording.subject }),
          ...(recording.tags && { tags: recording.tags }),
          ...(recording.custom_fields && { other_details: recording.custom_fields }),
        },
      });
      chatId = chat.chat_id;
      before = { ...(await snapshot(db, chatId, target)), lastMessageId: 0 };
    } else {
      for (const input of inputs) await appendMessage(db, { accountId: target.sandboxId, chatId: chatId!, actorLoginId: null, input });
    }
    const { after, typing, firstChangeAt } = await waitForTurn(db, chatId!, target, timings);
    const { bot, offer: offered } = await botTurn(db, { chatId: chatId!, target, before: before!, after, typing, sentAt, firstChangeAt });
    offer = offered ?? offer;
    turns.push({ customer: turn.customer, bot });
    held = after.assigneeId === target.vaUserId && after.status !== 'closed';
    before = after;
  }
  const last = before!;
  const [team] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, last.teamId));
  const { replay: _replay, recorded_actions: _seen, end: _end, ...rest } = recording;
  return {
    ...rest,
    turns,
    end: {
      status: last.status as 'queued' | 'picked' | 'onhold' | 'closed',
      team: team?.name ?? null,
      outcome: last.outcome,
      tags: last.tags,
      custom_fields: last.otherDetails,
    },
    replay: { run_id: target.runId, chat_id: chatId, seq },
  };
}

function customerInput(m: RecordedCustomerMessage, channel: string, offer: string | null): MessageInput {
  const input: MessageInput = { type: 'inbound' };
  if (m.text !== undefined) input.text = m.text;
  if (m.attachment) input.attachment = m.attachment;
  if (m.quick_reply_response) {
    input.quick_reply_response = { request_identifier: offer ?? 'replay', options: m.quick_reply_response.options };
    if (channel === 'livechat') input.livechat_sub_type = 'quick_reply_response';
  }
  return input;
}

/** Waits until the bot has finished the turn just sent (see replayChat); returns the chat as it then stands. */
async function waitForTurn(db: Db, chatId: string, target: ReplayTarget, timings: ReplayTimings) {
  const start = Date.now();
  let previous = await snapshot(db, chatId, target);
  let typing = previous.typing;
  let quietSince = Date.now();
  let firstChangeAt: number | null = null;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, timings.pollMs));
    const now = await snapshot(db, chatId, target);
    typing ||= now.typing;
    if (
      now.lastMessageId !== previous.lastMessageId ||
      now.updatedAt.getTime() !== previous.updatedAt.getTime() ||
      now.typing !== previous.typing
    ) {
      quietSince = Date.now();
      firstChangeAt ??= Date.now();
    }
    previous = now;
    const handled = now.eventStatus !== 'pending';
    const letGo = now.assigneeId !== target.vaUserId || now.status === 'closed';
    if (handled && (letGo || Date.now() - quietSince >= timings.settleMs)) break;
    if (Date.now() - start >= timings.turnTimeoutMs) break;
  }
  return { after: previous, typing, firstChangeAt };
}

/**
 * The chat's state, its last message, and the status of the newest event for the VA (the turn's;
 * `events_chat_va_seq_idx`), in one round trip.
 */
async function snapshot(db: Db, chatId: string, target: ReplayTarget): Promise<Snapshot> {
  const [row] = await snapshotQuery(db, chatId, target);
  return {
    ...row,
    otherDetails: row.otherDetails as Snapshot['otherDetails'],
    typing: row.typingUntil !== null && row.typingUntil.getTime() > Date.now(),
    lastMessageId: Number(row.lastMessageId ?? 0),
    eventStatus: row.eventStatus ?? null,
  };
}

/** The snapshot's one statement (test/plans/replay reads its plan): run every poll of every waiting turn. */
export function snapshotQuery(db: Db, chatId: string, target: Pick<ReplayTarget, 'sandboxId' | 'vaUserId'>) {
  return db
    .select({
      status: chats.status,
      assigneeId: chats.assigneeId,
      teamId: chats.teamId,
      skill: chats.skill,
      tags: chats.tags,
      otherDetails: chats.otherDetails,
      outcome: chats.outcome,
      updatedAt: chats.updatedAt,
      typingUntil: chats.typingUntil,
      lastMessageId: sql<number | null>`(select max(${messages.id}) from ${messages} where ${messages.chatId} = ${chatId})`,
      eventStatus: sql<
        string | null
      >`(select ${events.status} from ${events} where ${events.chatId} = ${chatId} and ${events.virtualAgentId} = ${target.vaUserId} order by ${events.seq} desc limit 1)`,
    })
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.accountId, target.sandboxId)));
}

/** The messages written in the chat since `afterId`, in order (messages_chat_idx). */
export function messagesSinceQuery(db: Db, chatId: string, afterId: number) {
  return db
    .select({ type: messages.type, body: messages.body, author: messages.authorLoginId, sentAt: messages.sentAt })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), gt(messages.id, afterId)))
    .orderBy(asc(messages.id));
}

/** What the bot did between two snapshots: its messages in order, then typing, tags, custom fields, a transfer or a close. */
async function botTurn(
  db: Db,
  {
    chatId,
    target,
    before,
    after,
    typing,
    sentAt,
    firstChangeAt,
  }: {
    chatId: string;
    target: ReplayTarget;
    before: Snapshot;
    after: Snapshot;
    typing: boolean;
    sentAt: number;
    firstChangeAt: number | null;
  },
): Promise<{ bot: BotTurn; offer: string | null }> {
  const written = await messagesSinceQuery(db, chatId, before.lastMessageId);
  const actions: BotAction[] = [];
  for (const m of written) {
    if (m.type !== 'outbound' || m.author !== target.vaLoginId) continue;
    actions.push(messageAction(m.body));
  }
  const streamed = written.some(
    (m) => m.type === 'outbound' && m.author === target.vaLoginId && (m.body as { stream_state?: string }).stream_state,
  );
  if (typing || streamed) actions.push({ type: 'typing' });
  if (JSON.stringify(after.tags) !== JSON.stringify(before.tags)) actions.push({ type: 'tags', tags: after.tags });
  if (JSON.stringify(after.otherDetails) !== JSON.stringify(before.otherDetails))
    actions.push({ type: 'custom_fields', fields: after.otherDetails });
  if (after.status === 'closed' && before.status !== 'closed') actions.push({ type: 'close', outcome: after.outcome });
  else if (after.assigneeId !== target.vaUserId && before.assigneeId === target.vaUserId) {
    const [team] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, after.teamId));
    actions.push({ type: 'transfer', team: team?.name ?? String(after.teamId), skill: after.skill });
  }
  const firstMessage = written.find((m) => m.type === 'outbound' && m.author === target.vaLoginId);
  const actedAt = firstMessage ? firstMessage.sentAt.getTime() : firstChangeAt;
  const offers = written.flatMap((m) => {
    const id = (m.body as { quick_replies?: { request_identifier?: string } }).quick_replies?.request_identifier;
    return m.author === target.vaLoginId && id ? [id] : [];
  });
  return {
    bot: { actions, latency_ms: actions.length && actedAt !== null ? Math.max(0, actedAt - sentAt) : null },
    offer: offers.at(-1) ?? null,
  };
}

function messageAction(body: Record<string, unknown>): BotAction {
  const b = body as {
    text?: string;
    quick_replies?: { options: { title: string; payload: string }[] };
    attachment?: { type: string; url: string };
  };
  return {
    type: 'message',
    text: b.text ?? '',
    ...(b.quick_replies && { quick_replies: b.quick_replies.options.map((o) => ({ title: o.title, payload: o.payload })) }),
    ...(b.attachment && { attachment: { type: b.attachment.type, url: b.attachment.url } }),
  };
}
