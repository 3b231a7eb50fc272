import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { authenticateSession } from '@/lib/admin-auth/authenticate-session';
import { readSessionToken } from '@/lib/admin-auth/session-cookie';
import { streamAdminChat } from '@/lib/admin-chats/stream-admin-chat';
import { ApiError } from '@/platform/errors';
import { errorAnswer, toApiError } from '@/platform/http/respond';
import { newTraceId } from '@/platform/util/ids';

export const dynamic = 'force-dynamic';

/**
 * GET /api/admin/chats/{chat_id}/stream: one chat of the administrator's account as Server-Sent
 * Events, for the console's chat page (lib/admin-chats/stream-admin-chat.ts). The admin session
 * cookie is required (3001 without it); a chat of another account is not found (3006). Refusals
 * are the usual envelope.
 */
export async function GET(req: NextRequest, { params }: { params: Promise<{ chatId: string }> }): Promise<Response> {
  const trxid = newTraceId();
  try {
    const { chatId } = await params;
    // The admin contract's rule for chat_id: 1 to 100 characters.
    if (chatId.length < 1 || chatId.length > 100) {
      throw new ApiError(2014, {
        detail: 'chat_id is not a chat id',
        errors: [{ field: 'chat_id', message: 'must be 1 to 100 characters' }],
      });
    }
    const db = await getDb();
    const admin = await authenticateSession(db, { token: readSessionToken(req.headers) });
    const stream = await streamAdminChat(db, { accountId: admin.accountId, chatId, signal: req.signal });
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
