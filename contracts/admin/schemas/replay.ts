import { z } from 'zod';
import { dateTimeInput, intIdParam, named, text, withOpenApi } from '../../common';
import { RECORDING_LINE_EXAMPLE, recordingLineSchema } from './recording';

/** POST /api/admin/replay/virtual-agents: a VA of the replay sandbox for the bot under test. */
export const createSandboxVirtualAgentBodySchema = z
  .object({
    name: text().trim().min(1).max(100),
    delivery_mode: z.enum(['webhook', 'pull']).optional(),
    webhook_url: text().max(2048).optional(),
    webhook_headers: z
      .record(text().max(200), text().max(2000))
      .optional()
      .describe('Static headers sent with each event: names up to 200 characters, values up to 2,000'),
    /** The sandbox's copy of this live team holds the VA (default: the first team). */
    team_name: text().min(1).max(200).optional(),
  })
  .strict();
named('CreateSandboxVirtualAgentBody', createSandboxVirtualAgentBodySchema, {
  name: 'Candidate bot',
  webhook_url: 'https://bot.acme.example/replay-webhook',
  team_name: 'Bots',
});
export type CreateSandboxVirtualAgentBody = z.infer<typeof createSandboxVirtualAgentBodySchema>;

export const sandboxVirtualAgentSchema = z.object({
  id: z.number().int(),
  login_id: z.string(),
  name: z.string(),
  delivery_mode: z.enum(['webhook', 'pull']),
  webhook_url: z.string().nullable(),
  sandbox_account_id: z.number().int(),
});
const SANDBOX_VA_EXAMPLE = {
  id: 8801,
  login_id: 'va-candidate-bot',
  name: 'Candidate bot',
  delivery_mode: 'webhook' as const,
  webhook_url: 'https://bot.acme.example/replay-webhook',
  sandbox_account_id: 12,
};
named('SandboxVirtualAgent', sandboxVirtualAgentSchema, SANDBOX_VA_EXAMPLE);
export const createdSandboxVirtualAgentSchema = named(
  'CreatedSandboxVirtualAgent',
  sandboxVirtualAgentSchema.extend({
    api_key: z.string().describe('Shown once: the bot under test authorizes with it'),
    signing_secret: z.string().describe('Shown once: the bot under test verifies the replay events with it'),
  }),
  {
    ...SANDBOX_VA_EXAMPLE,
    api_key: 'vak_3Jq9Xw2kTz8rLm4pV6nB1cD7fG5hK0sA',
    signing_secret: 'whsec_MfKQ9r8GKjqY3WZ2xV7n1tB6cL4pD0sE5hA2uJ8wR3o=',
  },
);

export const createReplayBodySchema = z
  .object({
    /** A VA of the account's replay sandbox (POST /replay/virtual-agents). */
    virtual_agent_id: z.number().int().min(1).max(2_147_483_647),
    label: text().max(200).optional(),
    settle_ms: z.number().int().min(0).max(60_000).optional(),
    turn_timeout_ms: z.number().int().min(100).max(600_000).optional(),
    concurrency: z.number().int().min(1).max(200).optional(),
  })
  .strict();
named('CreateReplayBody', createReplayBodySchema, {
  virtual_agent_id: 8801,
  label: 'candidate 2026-11-29',
  settle_ms: 300,
  concurrency: 16,
});
export type CreateReplayBody = z.infer<typeof createReplayBodySchema>;

export const addReplayChatsBodySchema = z
  .object({ chats: z.array(recordingLineSchema).min(1).max(500).describe('Recording lines, in the recording order') })
  .strict();
named('AddReplayChatsBody', addReplayChatsBodySchema, { chats: [RECORDING_LINE_EXAMPLE] });

export const replayRunSchema = z.object({
  run_id: z.string(),
  label: z.string(),
  status: z
    .enum(['loading', 'running', 'done', 'failed', 'interrupted'])
    .describe('`interrupted`: the server running it stopped mid-run (its `error` says since when); start a new run'),
  virtual_agent_id: z.number().int(),
  chats_total: z.number().int(),
  chats_done: z.number().int(),
  chats_failed: z.number().int(),
  options: z.object({ settle_ms: z.number().int(), turn_timeout_ms: z.number().int(), concurrency: z.number().int() }),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
named('ReplayRun', replayRunSchema, {
  run_id: 'rpl_4fa9c2e81b7d06a3c5e2f9d1',
  label: 'candidate 2026-11-29',
  status: 'done',
  virtual_agent_id: 8801,
  chats_total: 1000,
  chats_done: 1000,
  chats_failed: 0,
  options: { settle_ms: 300, turn_timeout_ms: 15000, concurrency: 16 },
  error: null,
  created_at: '2026-11-29T02:10:00.000Z',
  finished_at: '2026-11-29T02:13:41.000Z',
});
export type ReplayRunView = z.infer<typeof replayRunSchema>;

export const replayDiffQuerySchema = z
  .object({
    /** `recording` (default): the recording the run replayed; or another run's id (`rpl_…`) as the baseline. */
    against: text().max(100).optional(),
    text: z.enum(['exact', 'normalised']).optional(),
    /** `changed` (default): the per-turn diff of changed chats only; `all`: of every chat. */
    include: z.enum(['changed', 'all']).optional(),
  })
  .strict();

const changeKind = z.enum(['reached', 'text', 'quick_replies', 'typing', 'tags', 'custom_fields', 'transfer', 'close', 'handover']);
const percentiles = z.object({ p50: z.number(), p95: z.number(), max: z.number() }).nullable();
const diffSummarySchema = z.object({
  chats_total: z.number().int(),
  chats_changed: z.number().int(),
  handover_changed_chats: z.number().int(),
  turns_compared: z.number().int(),
  turns_changed: z.number().int(),
  turns_text_volatile_only: z.number().int(),
  by_change: z.record(z.string(), z.number().int()),
  latency_ms: z.object({ baseline: percentiles, candidate: percentiles }),
  changed: z.array(
    z.object({
      id: z.string(),
      seq: z.number().int(),
      first_changed_turn: z.number().int().nullable(),
      changes: z.array(changeKind),
      error: z.string().optional(),
    }),
  ),
});
export const replayDiffSchema = named(
  'ReplayDiff',
  z.object({
    run_id: z.string(),
    against: z.string(),
    summary: diffSummarySchema,
    /** Per chat and per turn (each turn's actions on both sides when it changed). */
    chats: z.array(z.record(z.string(), z.unknown())),
  }),
  {
    run_id: 'rpl_4fa9c2e81b7d06a3c5e2f9d1',
    against: 'rpl_9b1d3f5a7c2e4a6b8d0f1e3c',
    summary: {
      chats_total: 1000,
      chats_changed: 1,
      handover_changed_chats: 1,
      turns_compared: 5000,
      turns_changed: 1,
      turns_text_volatile_only: 0,
      by_change: { text: 1, handover: 1 },
      latency_ms: { baseline: { p50: 120, p95: 260, max: 900 }, candidate: { p50: 118, p95: 255, max: 870 } },
      changed: [{ id: 'refund-after-greeting', seq: 41, first_changed_turn: 2, changes: ['text', 'handover'] }],
    },
    chats: [
      {
        id: 'refund-after-greeting',
        seq: 41,
        changed: true,
        first_changed_turn: 2,
        handover_changed: true,
        changes: ['text', 'handover'],
        turns: [],
      },
    ],
  },
);

/** GET /api/admin/replay/export: which chats to write as recording lines (all given filters hold). */
export const exportRecordingsQuerySchema = z
  .object({
    chat_ids: text().max(20_000).optional().describe('Comma-separated chat IDs (at most 500)'),
    tag: text().min(1).max(200).optional().describe('Chats carrying this tag'),
    virtual_agent_id: intIdParam()
      .optional()
      .describe('Chats this VA held (from its events, while they are kept, or its current assignment)'),
    from: dateTimeInput().optional().describe('Chats created at or after this time'),
    to: dateTimeInput().optional().describe('Chats created before this time'),
    limit: z.coerce.number().int().min(1).max(100_000).optional().describe('At most this many lines (default 10,000)'),
  })
  .strict();
export type ExportRecordingsQuery = z.infer<typeof exportRecordingsQuerySchema>;

/** A JSON Lines answer, streamed: one recording line per chat. */
export const jsonLinesStream = (exampleText: string) =>
  withOpenApi(z.custom<ReadableStream<Uint8Array>>((v) => v instanceof ReadableStream).describe('JSON Lines, streamed'), {
    example: exampleText,
  });
