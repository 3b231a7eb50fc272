import { and, eq } from 'drizzle-orm';
import type { TestEventResult } from '@/contracts/admin/schemas/delivery';
import type { Db } from '@/db/client';
import { virtualAgents } from '@/db/schema';
import { sendWebhook } from '@/lib/delivery/send-webhook';
import { buildEventBody, toEventEntry } from '@/lib/events/event-body';
import { ApiError } from '@/platform/errors';
import { newTraceId } from '@/platform/util/ids';

/**
 * Sends one signed `chat.assigned` event for a made-up chat to the VA's webhook, through the
 * delivery engine's own sender (same signature, static headers, address policy and timeout), and
 * reports what came back. Nothing is stored and nothing is retried: it is a connectivity check.
 */
export async function sendTestEvent(db: Db, { accountId, id }: { accountId: number; id: number }): Promise<TestEventResult> {
  const [va] = await db
    .select({ url: virtualAgents.webhookUrl, headers: virtualAgents.webhookHeaders, secret: virtualAgents.signingSecret })
    .from(virtualAgents)
    .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)));
  if (!va) throw new ApiError(3006, { detail: `no virtual agent ${id}` });

  const transactionId = newTraceId();
  const chatId = `test-${newTraceId()}`;
  const sentAt = new Date().toISOString();
  const body = buildEventBody('chat.assigned', testChat(chatId), transactionId, {
    skill: null,
    messages: [
      toEventEntry(
        {
          transid: newTraceId(),
          type: 'inbound',
          text: 'This is a test event sent from the admin pages. No chat exists.',
          author: null,
          timestamp: sentAt,
        },
        transactionId,
      ),
    ],
  });
  body.test = true;

  if (!va.url) throw new ApiError(3008, { detail: 'the virtual agent has no webhook URL (pull delivery mode)' });
  const outcome = await sendWebhook({ url: va.url, staticHeaders: va.headers, signingSecret: va.secret, transactionId, body });
  return {
    ok: outcome.ok,
    http_status: outcome.httpStatus,
    error: outcome.error,
    duration_ms: outcome.durationMs,
    response_excerpt: outcome.responseExcerpt,
    event_type: 'chat.assigned',
    chat_id: chatId,
    transaction_id: transactionId,
    sent_at: outcome.startedAt.toISOString(),
  };
}

function testChat(id: string) {
  return {
    id,
    channel: 'api' as const,
    assetId: 0,
    teamId: 0,
    destinationId: 'test-customer',
    threadId: null,
    browserFingerprint: null,
    subject: null,
    skill: null,
  };
}
