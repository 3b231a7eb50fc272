import { env } from '@/env';
import { expireApprovals } from '@/lib/approvals/expire-approvals';
import { closeIdleStreams } from '@/lib/chats/cut-streams';
import { sweepReplyClocks } from '@/lib/chats/sweep-reply-clocks';
import { advanceRecoveries, onRecoveryWake } from '@/lib/delivery/advance-recoveries';
import { markFailingWebhooks } from '@/lib/delivery/webhook-failing';
import { handOverIdlePullChats } from '@/lib/pull/hand-over-idle-pull';
import { interruptStalledReplays } from '@/lib/replay/interrupt-stalled-replays';
import { runConfiguredRetention } from '@/lib/retention/run-configured-retention';
import { closeDueTurns, onTurnDue, TURN_LOOK_MS } from '@/lib/turns/turn-closer';
import type { Duty } from './duty';

/** Every minute, Inngest's finest cron. */
export const EVERY_MINUTE = '* * * * *';
/** Hourly, at a minute of its own. */
export const RETENTION_CRON = '17 * * * *';

/**
 * The service's periodic duties, one list for both runners: the embedded loop
 * (`startDuties`, DELIVERY_ENGINE=embedded) and Inngest's cron functions (DELIVERY_ENGINE=inngest).
 * Each run is bounded and safe on several instances at once (SKIP LOCKED, leases or a condition
 * repeated in the write), so two runners never act twice on one row.
 */
export const duties: readonly Duty[] = [
  {
    id: 'advance-recoveries',
    // Every 2 s, and at once when a recovery starts in this process.
    everyMs: () => 2_000,
    cron: EVERY_MINUTE,
    wake: (now) => {
      onRecoveryWake(now);
      return () => onRecoveryWake(undefined);
    },
    run: async (db) => [...(await advanceRecoveries(db)).keys()],
  },
  {
    id: 'mark-failing-webhooks',
    everyMs: () => 60_000,
    cron: EVERY_MINUTE,
    run: (db) => markFailingWebhooks(db, { afterSeconds: env().WEBHOOK_FAILING_AFTER_SECONDS }),
  },
  {
    // The bot-down fallback of pull VAs idle for PULL_IDLE_FALLBACK_SECONDS.
    id: 'idle-pull-fallback',
    everyMs: () => 60_000,
    cron: EVERY_MINUTE,
    run: async (db) => (await handOverIdlePullChats(db)).length,
  },
  {
    // Streamed replies without a chunk for STREAM_IDLE_SECONDS are closed, marked cut short.
    id: 'cut-idle-streams',
    everyMs: () => 1_000,
    cron: EVERY_MINUTE,
    run: async (db) => (await closeIdleStreams(db, { idleSeconds: env().STREAM_IDLE_SECONDS })).length,
  },
  {
    // Spent reply budgets: the chat goes where the VA's settings say.
    id: 'act-on-reply-clocks',
    everyMs: () => 1_000,
    cron: EVERY_MINUTE,
    run: async (db) => (await sweepReplyClocks(db, {})).length,
  },
  {
    // Approval requests past their expiry: expired, and their VA told (approval.expired).
    id: 'expire-approvals',
    everyMs: () => 1_000,
    cron: EVERY_MINUTE,
    run: async (db) => (await expireApprovals(db)).length,
  },
  {
    // Customers' turns whose window has closed (lib/turns): their held message.received is released
    // when it is due (the run says when the next one is), at once when a fragment or typing signal in
    // this process moved a due time, and within TURN_LOOK_MS for a turn another instance opened.
    id: 'close-due-turns',
    everyMs: () => TURN_LOOK_MS,
    nextInMs: (output) => (output as Awaited<ReturnType<typeof closeDueTurns>>).nextDueInMs,
    everyEngine: true,
    cron: EVERY_MINUTE,
    wake: onTurnDue,
    run: (db) => closeDueTurns(db),
  },
  {
    // Replays left `running` by a server that stopped mid-run: marked `interrupted` with a reason.
    id: 'interrupt-stalled-replays',
    everyMs: () => Math.min(30_000, (env().REPLAY_STALL_SECONDS * 1000) / 2),
    cron: EVERY_MINUTE,
    run: (db) => interruptStalledReplays(db, { stallSeconds: env().REPLAY_STALL_SECONDS }),
  },
  {
    // Data past its retention period (lib/retention), in bounded batches.
    id: 'delete-expired-rows',
    everyMs: () => env().RETENTION_INTERVAL_MINUTES * 60_000,
    firstAfterMs: 60_000,
    cron: RETENTION_CRON,
    run: async (db) => Object.fromEntries((await runConfiguredRetention(db)).map((r) => [r.job, r.deleted])),
  },
];

/** The duties the embedded loop runs in a process whose DELIVERY_ENGINE is `engine`. */
export function dutiesInProcess(engine: string): Duty[] {
  return duties.filter((d) => engine === 'embedded' || d.everyEngine);
}

/** The duties Inngest runs on `cron`, in the list's order. */
export function dutiesOn(cron: string): Duty[] {
  return duties.filter((d) => d.cron === cron);
}
