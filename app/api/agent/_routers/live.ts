import { tsr } from '@ts-rest/serverless/next';
import { agentContract } from '@/contracts/agent';
import { getDb } from '@/db/client';
import { streamWorkspace } from '@/lib/agent/stream-workspace';
import type { AgentAuth } from '@/platform/http/request-context';
import { withStreamSeat } from '@/platform/realtime/stream-seats';

export const liveRouter = tsr.routerWithMiddleware(agentContract.live)<{ agent: AgentAuth }>({
  stream: async ({ query, headers }, { request }) => {
    const resume = headers['last-event-id'];
    const stream = await withStreamSeat(async () =>
      streamWorkspace(await getDb(), {
        agent: request.agent,
        chatId: query.chat ?? null,
        after: resume === undefined ? undefined : Number(resume),
      }),
    );
    // An EventStream body is streamed by both entries (platform/http); the contract documents it as text/event-stream.
    return { status: 200 as const, body: stream };
  },
});
