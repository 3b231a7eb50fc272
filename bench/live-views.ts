/**
 * npm run bench:live-views: what the workspace and the console's chat page cost per streamed reply.
 * A chat held by the tenant's VA is open in both views (the workspace stream `/api/agent/stream?chat=`
 * and the console's `/api/admin/chats/{id}/stream`, through their real handlers in this process);
 * the bot streams a reply of BENCH_CHUNKS chunks (20, one every BENCH_CHUNK_MS: 50) and closes it, BENCH_REPLIES times (5). Counted
 * per reply: the frames and bytes each stream sent, and the requests and bytes the page would add:
 * the workspace page re-fetched the chat (`GET /api/agent/chats/{id}`) on each `chat` frame that
 * carried no change, which the bench does too (react-query's invalidate refetches once per ping).
 * Frame bytes are the frame's `event:`, `id:` and `data:` lines. PGlite in memory by default;
 * DATABASE_URL for PostgreSQL. Prints a table; BENCHMARKS.md keeps the figures before and after
 * the live views sent changes (section bench:live-views).
 */
import os from 'node:os';
import type { SseFrame } from '@/test/support/sse';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20);
const REPLIES = Number(process.env.BENCH_REPLIES ?? 5);
/** A bot's pace: 20 chunks a second, as LLM replies stream. */
const CHUNK_MS = Number(process.env.BENCH_CHUNK_MS ?? 50);
const QUIET_MS = 400;

type Count = { frames: number; frameBytes: number; gets: number; getBytes: number; byEvent: Record<string, number> };
const zero = (): Count => ({ frames: 0, frameBytes: 0, gets: 0, getBytes: 0, byEvent: {} });
const frameBytes = (f: SseFrame) =>
  (f.id === undefined ? 0 : f.id.length + 5) + (f.event ? f.event.length + 8 : 0) + (f.data === undefined ? 0 : f.data.length + 7) + 1;

async function main() {
  process.env.LOG_LEVEL ??= 'warn';
  process.env.ADMIN_RATE_LIMIT_PER_MINUTE ??= '100000000';
  const { openTestDatabase } = await import('@/test/support/db');
  const { closeDb } = await import('@/db/client');
  const { createTenant } = await import('@/test/support/tenant');
  const { newChat } = await import('@/test/support/chats');
  const { botApi } = await import('@/test/support/api-client');
  const { newSignedInAgent, signedInAdminOf } = await import('@/test/support/people');
  const db = await openTestDatabase();
  try {
    const t = await createTenant(db);
    const admin = (await signedInAdminOf(db, t.account.id)).client;
    const agent = (await newSignedInAgent(db, admin, { accountId: t.account.id, teamIds: [t.botTeam.id], tag: 'bench' })).client;
    const chat = await newChat(t, { assignee: t.bot.user.loginId });
    const cid = chat.chat_id;
    for (let i = 0; i < 30; i++)
      await botApi('POST', `/chats/${cid}/messages`, {
        token: t.token,
        body: { type: i % 2 ? 'outbound' : 'inbound', text: `earlier message ${i}` },
      });

    let last = Date.now();
    const workspace = zero();
    const console_ = zero();
    const pending: Promise<unknown>[] = [];
    const ws = await agent.stream(`/stream?chat=${cid}`, {
      keep: false,
      onFrame: (f) => {
        if (f.comment !== undefined) return;
        last = Date.now();
        if (f.event === 'lists') return;
        workspace.frames++;
        workspace.frameBytes += frameBytes(f);
        workspace.byEvent[f.event] = (workspace.byEvent[f.event] ?? 0) + frameBytes(f);
        // The page before deltas: a `chat` frame of just the chat id made it re-fetch the chat.
        if (f.event === 'chat' && f.json && Object.keys(f.json).length === 1 && f.json.chat_id) {
          workspace.gets++;
          pending.push(
            agent.get(`/chats/${cid}`).then((r) => {
              workspace.getBytes += JSON.stringify(r.body).length;
              last = Date.now();
            }),
          );
        }
      },
    });
    const cs = await admin.stream(`/chats/${cid}/stream`, {
      keep: false,
      onFrame: (f) => {
        if (f.comment !== undefined) return;
        last = Date.now();
        console_.frames++;
        console_.frameBytes += frameBytes(f);
        console_.byEvent[f.event] = (console_.byEvent[f.event] ?? 0) + frameBytes(f);
      },
    });
    if (!ws.sse || !cs.sse) throw new Error('a stream was refused');
    const quiet = async () => {
      while (Date.now() - last < QUIET_MS) await new Promise((r) => setTimeout(r, 50));
      await Promise.all(pending.splice(0));
    };
    await quiet();
    const reset = (c: Count) => Object.assign(c, zero());
    reset(workspace);
    reset(console_);

    for (let r = 0; r < REPLIES; r++) {
      const opened = await botApi('POST', `/chats/${cid}/messages`, { token: t.token, body: { type: 'outbound', stream: true } });
      if (opened.status !== 201) throw new Error(JSON.stringify(opened.body));
      const transid = opened.body.response.transid;
      for (let seq = 1; seq <= CHUNKS; seq++) {
        const res = await botApi('POST', `/chats/${cid}/messages/${transid}/chunks`, {
          token: t.token,
          body: { seq, text: `word${seq} ` },
        });
        if (res.status !== 200 && res.status !== 201) throw new Error(JSON.stringify(res.body));
        await new Promise((r) => setTimeout(r, CHUNK_MS));
      }
      const closed = await botApi('PATCH', `/chats/${cid}/messages/${transid}`, { token: t.token, body: { stream_state: 'closed' } });
      if (closed.status !== 200) throw new Error(JSON.stringify(closed.body));
      await quiet();
    }
    await ws.sse.close();
    await cs.sse.close();

    const per = (n: number) => Math.round(n / REPLIES);
    const kb = (n: number) => `${(n / REPLIES / 1024).toFixed(1)} KB`;
    const rows = [
      ['workspace (agent)', workspace],
      ['console chat page', console_],
    ] as const;
    const table = [
      `| view | frames | stream bytes | page requests | request bytes | total bytes |`,
      `| --- | ---: | ---: | ---: | ---: | ---: |`,
      ...rows.map(
        ([name, c]) =>
          `| ${name} | ${per(c.frames)} | ${kb(c.frameBytes)} | ${per(c.gets)} | ${kb(c.getBytes)} | ${kb(c.frameBytes + c.getBytes)} |`,
      ),
    ].join('\n');
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`;
    const out = `Per streamed reply of ${CHUNKS} chunks (one every ${CHUNK_MS} ms) and its close, mean of ${REPLIES}, chat of ${30} earlier messages (${machine}):\n\n${table}`;
    console.log(out);
    for (const [name, c] of rows)
      console.log(
        `${name}, stream bytes per reply by event: ${Object.entries(c.byEvent)
          .map(([e, n]) => `${e} ${per(n)}`)
          .join(', ')}`,
      );
  } finally {
    await closeDb();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
