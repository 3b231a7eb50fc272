import { tsr } from '@ts-rest/serverless/next';
import { botContract } from '@/contracts/bot';
import { getDb } from '@/db/client';
import { ackEvents } from '@/lib/pull/ack-events';
import { encodeCursor } from '@/lib/pull/cursor';
import { listEvents } from '@/lib/pull/list-events';
import { openEventStream } from '@/lib/pull/open-event-stream';
import { readPullState, startOf } from '@/lib/pull/read-pull-state';
import type { BotAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';
import { withStreamSeat } from '@/platform/realtime/stream-seats';

export const eventsRouter = tsr.routerWithMiddleware(botContract.events)<{ bot: BotAuth }>({
  listEvents: async ({ query }, { request }) => {
    const { accountId, userId } = request.bot;
    const page = await listEvents(await getDb(), {
      accountId,
      vaUserId: userId,
      after: query.after,
      limit: query.limit ?? 100,
      waitSeconds: query.wait_seconds ?? 0,
    });
    return ok(4309, page);
  },
  streamEvents: async ({ query, headers }, { request }) => {
    const { accountId, userId } = request.bot;
    const resume = headers['last-event-id'];
    const stream = await withStreamSeat(async () =>
      openEventStream(await getDb(), {
        accountId,
        vaUserId: userId,
        cursor: resume ?? query.after,
        field: resume !== undefined ? 'header.last-event-id' : 'query.after',
      }),
    );
    // An EventStream body is streamed by both entries (platform/http); the contract documents it as text/event-stream.
    return { status: 200 as const, body: stream };
  },
  ackEvents: async ({ body }, { request }) => {
    const { accountId, userId } = request.bot;
    const db = await getDb();
    const state = await readPullState(db, { accountId, vaUserId: userId });
    const to = await startOf(db, state, { accountId, vaUserId: userId, cursor: body.cursor, field: 'cursor' });
    const acked = await ackEvents(db, { accountId, vaUserId: userId, to });
    return ok(4310, { acknowledged: encodeCursor(userId, acked) });
  },
});
