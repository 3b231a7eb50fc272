import { tsr } from '@ts-rest/serverless/next';
import { adminContract } from '@/contracts/admin';
import { getDb } from '@/db/client';
import { addReplayChats } from '@/lib/replay/add-replay-chats';
import { createReplayRun } from '@/lib/replay/create-replay-run';
import { createSandboxVirtualAgent } from '@/lib/replay/create-sandbox-virtual-agent';
import { diffReplayRun } from '@/lib/replay/diff-replay-run';
import { exportRecordings, toJsonLinesStream } from '@/lib/replay/export-recordings';
import { listReplayRuns } from '@/lib/replay/list-replay-runs';
import { listSandboxVirtualAgents } from '@/lib/replay/list-sandbox-virtual-agents';
import { readReplayResults } from '@/lib/replay/read-replay-results';
import { getReplayRun } from '@/lib/replay/replay-run-view';
import { startReplayRun } from '@/lib/replay/start-replay-run';
import type { AdminAuth } from '@/platform/http/request-context';
import { ok } from '@/platform/http/respond';

export const replaysRouter = tsr.routerWithMiddleware(adminContract.replays)<{ admin: AdminAuth }>({
  createSandboxVirtualAgent: async ({ body }, { request }) =>
    ok(4401, await createSandboxVirtualAgent(await getDb(), { accountId: request.admin.accountId, body })),
  listSandboxVirtualAgents: async (_args, { request }) =>
    ok(4400, await listSandboxVirtualAgents(await getDb(), { accountId: request.admin.accountId })),
  createReplay: async ({ body }, { request }) =>
    ok(4320, await createReplayRun(await getDb(), { accountId: request.admin.accountId, body })),
  addReplayChats: async ({ params, body }, { request }) =>
    ok(4400, await addReplayChats(await getDb(), { accountId: request.admin.accountId, runId: params.run_id, chats: body.chats })),
  startReplay: async ({ params }, { request }) =>
    ok(4400, await startReplayRun(await getDb(), { accountId: request.admin.accountId, runId: params.run_id })),
  listReplays: async (_args, { request }) => ok(4400, await listReplayRuns(await getDb(), { accountId: request.admin.accountId })),
  getReplay: async ({ params }, { request }) =>
    ok(4400, await getReplayRun(await getDb(), { accountId: request.admin.accountId, runId: params.run_id })),
  exportRecordings: async ({ query }, { request }) => {
    const lines = exportRecordings(await getDb(), { accountId: request.admin.accountId, query });
    // A ReadableStream body is streamed by both entries (platform/http); the contract documents it as JSON Lines.
    return { status: 200 as const, body: toJsonLinesStream(lines) };
  },
  replayResults: async ({ params }, { request }) => {
    const lines = await readReplayResults(await getDb(), { accountId: request.admin.accountId, runId: params.run_id });
    return { status: 200 as const, body: toJsonLinesStream(lines) };
  },
  diffReplay: async ({ params, query }, { request }) =>
    ok(4321, await diffReplayRun(await getDb(), { accountId: request.admin.accountId, runId: params.run_id, ...query })),
});
