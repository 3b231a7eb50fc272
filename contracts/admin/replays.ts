import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope, text } from '../common';
import { errors } from '../errors';
import { ACTION_CODES, READ_CODES, WRITE_CODES } from './common';
import { RECORDING_LINE_EXAMPLE } from './schemas/recording';
import {
  addReplayChatsBodySchema,
  createdSandboxVirtualAgentSchema,
  createReplayBodySchema,
  createSandboxVirtualAgentBodySchema,
  exportRecordingsQuerySchema,
  jsonLinesStream,
  replayDiffQuerySchema,
  replayDiffSchema,
  replayRunSchema,
  sandboxVirtualAgentSchema,
} from './schemas/replay';

const c = initContract();
const runParams = z.object({ run_id: text().min(1).max(100) });

export const replaysContract = c.router({
  createSandboxVirtualAgent: {
    method: 'POST',
    path: '/replay/virtual-agents',
    summary: 'Register a VA in the replay sandbox, for a bot under test',
    description:
      "The account's replay sandbox (made on first use: the account's team and skill names, no people, no routing) gets a VA; run the bot under test with the API key and signing secret answered here (once). Replays send their chats to it and nothing it does reaches a customer, a person or the live account's lists and metrics.",
    body: createSandboxVirtualAgentBodySchema,
    responses: { 201: envelope(4401, createdSandboxVirtualAgentSchema), ...errors(...WRITE_CODES, 2034, 3004) },
  },
  listSandboxVirtualAgents: {
    method: 'GET',
    path: '/replay/virtual-agents',
    summary: "List the replay sandbox's VAs",
    description: 'The VAs registered for bots under test (keys and secrets are never shown again); empty before the first.',
    responses: { 200: envelope(4400, z.array(sandboxVirtualAgentSchema)), ...errors(...READ_CODES) },
  },
  createReplay: {
    method: 'POST',
    path: '/replays',
    summary: 'Create a replay run (then add its chats and start it)',
    description:
      'A run sends each recorded chat, turn by turn, to `virtual_agent_id` (a sandbox VA). A turn is over when its event was handled (answered 200, or acknowledged when pulled) and the bot then stayed quiet for `settle_ms` (default 300), or let the chat go; after `turn_timeout_ms` (default 15000) it is over anyway. `concurrency` chats (default 16) run at once.',
    body: createReplayBodySchema,
    responses: { 201: envelope(4320, replayRunSchema), ...errors(...WRITE_CODES, 2113) },
  },
  addReplayChats: {
    method: 'POST',
    path: '/replays/:run_id/chats',
    summary: 'Add recording lines to a run that has not started',
    description:
      'Up to 500 lines a call (and within the body size limit); they keep the order of the calls. Each line is checked against the recording format (2000 names the line and field).',
    pathParams: runParams,
    body: addReplayChatsBodySchema,
    responses: { 200: envelope(4400, replayRunSchema), ...errors(...WRITE_CODES, 2014, 2110, 2112) },
  },
  startReplay: {
    method: 'POST',
    path: '/replays/:run_id/start',
    summary: 'Start a run: its chats are replayed in the background',
    description:
      'The run must be `loading` (2112 otherwise) and hold at least one chat (2114). Follow its progress with GET /replays/{run_id}; a run whose server stopped mid-run is marked `interrupted` within REPLAY_STALL_SECONDS (60): start another.',
    pathParams: runParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, replayRunSchema), ...errors(...ACTION_CODES, 2014, 2110, 2112, 2114) },
  },
  listReplays: {
    method: 'GET',
    path: '/replays',
    summary: 'Replay runs, newest first (the last 100)',
    description:
      'Each run with its status (`loading`, `running`, `done`, `failed`, `interrupted`), progress and options. Runs are kept REPLAY_RETENTION_DAYS (30) days.',
    responses: { 200: envelope(4400, z.array(replayRunSchema)), ...errors(...READ_CODES) },
  },
  getReplay: {
    method: 'GET',
    path: '/replays/:run_id',
    summary: 'A replay run and its progress',
    description: '`chats_done` counts chats replayed (failed ones included, `chats_failed`); the run is `done` after the last.',
    pathParams: runParams,
    responses: { 200: envelope(4400, replayRunSchema), ...errors(...READ_CODES, 2014, 2110) },
  },
  exportRecordings: {
    method: 'GET',
    path: '/replay/export',
    summary: 'Export chats as a recording (JSON Lines, streamed)',
    description:
      'One recording line per chat of the account that matches every filter given (IDs, tag, a VA that held it, a creation window), oldest first, streamed as it is read: each customer turn with what a VA said after it, its transfer and its close. Tags, custom fields and typing have no history in a transcript, so the lines say they were not recorded (`recorded_actions`). At most `limit` lines (default 10,000); a chat the customer never wrote in makes none. Unknown query parameters are refused (2001).',
    query: exportRecordingsQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'application/x-ndjson', body: jsonLinesStream(`${JSON.stringify(RECORDING_LINE_EXAMPLE)}\n`) }),
      ...errors(...READ_CODES, 2001),
    },
  },
  replayResults: {
    method: 'GET',
    path: '/replays/:run_id/results',
    summary: "A run's chats as replayed (JSON Lines, streamed)",
    description:
      'In recording order and in the recording format: each turn with what the bot under test did and its reply latency, and how the chat ended. A chat not replayed yet is left out.',
    pathParams: runParams,
    responses: {
      200: c.otherResponse({ contentType: 'application/x-ndjson', body: jsonLinesStream(`${JSON.stringify(RECORDING_LINE_EXAMPLE)}\n`) }),
      ...errors(...READ_CODES, 2014, 2110),
    },
  },
  diffReplay: {
    method: 'GET',
    path: '/replays/:run_id/diff',
    summary: 'Diff a run against its recording or against another run',
    description:
      'Per chat and per turn: text (exact and normalised), quick replies, typing, tags, custom fields, transfer target, close outcome, handover decisions and reply latency, with a summary (chats changed, first changed turn of each, handover decisions changed). A chat of the baseline is matched by its position in the recording. Unknown query parameters are refused (2001).',
    pathParams: runParams,
    query: replayDiffQuerySchema,
    responses: { 200: envelope(4321, replayDiffSchema), ...errors(...READ_CODES, 2001, 2014, 2110) },
  },
});
