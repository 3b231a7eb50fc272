import type { BotTurn, RecordingLine } from '@/contracts/admin/schemas/recording';

export type TranscriptChat = {
  id: string;
  channel: RecordingLine['channel'];
  subject: string | null;
  status: 'queued' | 'picked' | 'onhold' | 'closed';
  outcome: string | null;
  tags: string[];
  otherDetails: Record<string, string | number | boolean | null>;
  teamName: string | null;
  assigneeIsVa: boolean;
  destinationId: string;
  customerName: string;
};
export type TranscriptMessage = { type: string; body: Record<string, unknown>; author: string | null; sentAt: Date };

/** "Transferred to Support / billing by va-helper." (lib/chats/transfer-chat.ts writes it). */
const TRANSFER = /^Transferred to (.+?)(?: \/ (.+?))? by (.+)\.$/;

/**
 * A live chat's transcript as a recording line: each run of customer messages opens a turn, and
 * what a VA (one of `vaLogins`) wrote or did until the next one is the turn's `bot`: its messages,
 * its transfer (from the transfer's announcement) and, when the chat ended closed in a VA's hands,
 * the close. Turns the customer sent after a VA let the chat go are recorded as not reached
 * (`bot: null`) until a VA writes again. The transcript has no history of tags, custom fields or
 * typing, so `recorded_actions` says a diff leaves those out. Null for a chat the customer never wrote in.
 */
export function transcriptToRecording(chat: TranscriptChat, transcript: TranscriptMessage[], vaLogins: Set<string>): RecordingLine | null {
  const turns: RecordingLine['turns'] = [];
  let turn: { customer: RecordingLine['turns'][number]['customer']; bot: BotTurn | null; lastInboundAt: number } | null = null;
  let withBot = true;
  let previousInbound = false;
  const flush = () => {
    if (turn) turns.push({ customer: turn.customer, bot: turn.bot });
  };
  for (const m of transcript) {
    const body = m.body as {
      text?: string;
      attachment?: { type: 'image' | 'audio' | 'video' | 'file'; url: string };
      quick_reply_response?: { options: { title: string; payload?: string }[] };
      quick_replies?: { options: { title: string; payload: string }[] };
    };
    const inbound = m.type === 'inbound';
    const separated = !previousInbound;
    previousInbound = inbound;
    if (inbound) {
      if (!turn || (separated && (turn.bot === null || turn.bot.actions.length > 0))) {
        flush();
        turn = { customer: [], bot: withBot ? { actions: [], latency_ms: null } : null, lastInboundAt: 0 };
      }
      const said = body.text !== undefined || body.attachment || body.quick_reply_response;
      turn.customer.push({
        ...(body.text !== undefined && { text: body.text }),
        // Other answers (a list or time picker) are not replayable yet: an empty text keeps the turn.
        ...(!said && { text: '' }),
        ...(body.attachment && { attachment: { type: body.attachment.type, url: body.attachment.url } }),
        ...(body.quick_reply_response && {
          quick_reply_response: {
            options: body.quick_reply_response.options.map((o) => ({
              title: o.title,
              ...(o.payload !== undefined && { payload: o.payload }),
            })),
          },
        }),
      });
      turn.lastInboundAt = m.sentAt.getTime();
      continue;
    }
    if (!turn) continue; // what a bot said before the customer's first message opens no turn
    if (m.type === 'outbound' && m.author !== null && vaLogins.has(m.author)) {
      withBot = true;
      turn.bot ??= { actions: [], latency_ms: null };
      if (turn.bot.latency_ms === null) turn.bot.latency_ms = Math.max(0, m.sentAt.getTime() - turn.lastInboundAt);
      turn.bot.actions.push({
        type: 'message',
        text: body.text ?? '',
        ...(body.quick_replies && { quick_replies: body.quick_replies.options.map((o) => ({ title: o.title, payload: o.payload })) }),
        ...(body.attachment && { attachment: { type: body.attachment.type, url: body.attachment.url } }),
      });
      continue;
    }
    const transfer = m.type === 'announcement' ? TRANSFER.exec(body.text ?? '') : null;
    if (transfer && vaLogins.has(transfer[3]) && turn.bot) {
      turn.bot.actions.push({ type: 'transfer', team: transfer[1], skill: transfer[2] ?? null });
      withBot = false;
    }
  }
  if (!turn) return null;
  if (chat.status === 'closed' && chat.assigneeIsVa && turn.bot) turn.bot.actions.push({ type: 'close', outcome: chat.outcome });
  flush();
  return {
    format: 'va-chat-recording',
    version: 1,
    id: chat.id,
    channel: chat.channel,
    customer: { destination_id: chat.destinationId, name: chat.customerName },
    ...(chat.subject && chat.channel === 'email' && { subject: chat.subject }),
    turns,
    recorded_actions: ['message', 'transfer', 'close'],
    end: { status: chat.status, team: chat.teamName, outcome: chat.outcome, tags: chat.tags, custom_fields: chat.otherDetails },
  };
}
