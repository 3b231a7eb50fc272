import type { NextRequest } from 'next/server';
import { getDb } from '@/db/client';
import { streamWorkspace } from '@/lib/agent/stream-workspace';
import { readAgentSessionToken } from '@/lib/agent-auth/agent-session-cookie';
import { authenticateAgent } from '@/lib/agent-auth/authenticate-agent';
import { ApiError } from '@/platform/errors';
import { errorAnswer, toApiError } from '@/platform/http/respond';
import { newTraceId } from '@/platform/util/ids';

export const dynamic = 'force-dynamic';

/**
 * GET /api/agent/stream[?chat=<chat id>]: the workspace's live view as Server-Sent Events
 * (lib/agent/stream-workspace.ts), for the signed-in person (the `va_agent_session` cookie, which
 * EventSource sends on the same origin). Refusals are the usual envelope.
 */
export async function GET(req: NextRequest): Promise<Response> {
  const trxid = newTraceId();
  try {
    const agent = await authenticateAgent(await getDb(), { token: readAgentSessionToken(req.headers) });
    const chat = req.nextUrl.searchParams.get('chat');
    if (chat !== null && (chat.length < 1 || chat.length > 100)) {
      throw new ApiError(2001, { detail: 'chat must be a chat id', errors: [{ field: 'chat', message: 'must be a chat id' }] });
    }
    const stream = await streamWorkspace(await getDb(), { agent, chatId: chat, signal: req.signal });
    return new Response(stream, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', trxid },
    });
  } catch (err) {
    const answer = errorAnswer(toApiError(err));
    const headers = new Headers({ trxid });
    for (const [k, v] of Object.entries(answer.headers.raw)) if (typeof v === 'string') headers.set(k, v);
    return new Response(answer.body as string, { status: answer.status, headers });
  }
}
