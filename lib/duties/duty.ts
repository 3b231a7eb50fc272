import type { Db } from '@/db/client';

/**
 * A periodic duty of the service: what it does, how often the embedded loop runs it, and the cron
 * on which Inngest runs it. Definitions only: `lib/duties/duties.ts` lists them, the embedded loop
 * (`lib/duties/start-duties.ts`) and the Inngest functions (`inngest/functions/`) run that one list.
 */
export type Duty = {
  /** Stable kebab-case name: the Inngest step's id and the name in logs. */
  id: string;
  /** Milliseconds between two runs in the embedded loop (read when the loop starts). */
  everyMs: () => number;
  /** The embedded loop's first run after its start; at once when absent. */
  firstAfterMs?: number;
  /** When Inngest runs it (DELIVERY_ENGINE=inngest). Duties on one cron run as steps of one function. */
  cron: string;
  /**
   * After a run, how soon the embedded loop runs it again when that is sooner than `everyMs`, read
   * from the run's output (the turn closer: when the next held turn is due). Undefined: `everyMs`.
   */
  nextInMs?: (output: unknown) => number | null | undefined;
  /**
   * The embedded loop runs it in every instance whatever DELIVERY_ENGINE says, because it must act
   * within a second and Inngest's finest cron is a minute; Inngest runs it on `cron` too, as a catch-up.
   */
  everyEngine?: true;
  /** A signal that asks the embedded loop to run it now rather than at its next tick; returns the unsubscribe. */
  wake?: (now: () => void) => () => void;
  /** One pass over what is due, bounded; answers a small JSON summary (Inngest records it as the step's output). */
  run: (db: Db) => Promise<unknown>;
};
