import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/errors';
import { errorAnswer, toApiError } from '@/lib/http/respond';
import { newTraceId } from '@/lib/util/ids';
import { authenticateVisitor } from '@/lib/widget/authenticate-visitor';
import { streamWidgetChat } from '@/lib/widget/stream-widget-chat';
import { guardWidgetStream } from '@/lib/widget/widget-guard';

export const dynamic = 'force-dynamic';

/**
 * GET /api/widget/chats/{chat_id}/stream: the customer's chat as Server-Sent Events
 * (lib/widget/stream-widget-chat.ts). The credential comes in `Authorization: Bearer` (the page
 * reads the stream with fetch, so no credential is ever put in a URL); `after` or `Last-Event-ID`
 * is the last message id the page holds. Refusals are the usual envelope.
 */
export async function GET(req: NextRequest, { params }: { params: Promise<{ chatId: string }> }): Promise<Response> {
  const trxid = newTraceId();
  try {
    const { chatId } = await params;
    await guardWidgetStream(req);
    const visitor = await authenticateVisitor(await getDb(), { authorization: req.headers.get('authorization') });
    const after = cursorOf(req.nextUrl.searchParams.get('after') ?? req.headers.get('last-event-id'));
    const stream = await streamWidgetChat(await getDb(), { visitor, chatId, after, signal: req.signal });
    return new Response(stream, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        trxid,
      },
    });
  } catch (err) {
    const answer = errorAnswer(toApiError(err));
    const headers = new Headers({ trxid });
    for (const [k, v] of Object.entries(answer.headers.raw)) if (typeof v === 'string') headers.set(k, v);
    return new Response(answer.body as string, { status: answer.status, headers });
  }
}

function cursorOf(value: string | null): number {
  if (value === null || value === '') return 0;
  if (!/^[0-9]{1,15}$/.test(value)) {
    throw new ApiError(2001, { detail: 'after must be a message id', errors: [{ field: 'after', message: 'must be a message id' }] });
  }
  return Number(value);
}
