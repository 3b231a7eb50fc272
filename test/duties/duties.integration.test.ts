import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InngestTestEngine } from '@inngest/test';
import { duties, dutiesInProcess } from '@/lib/duties/duties';
import type { Duty } from '@/lib/duties/duty';
import { startDuties, stopDuties } from '@/lib/duties/start-duties';
import { setupTestDatabase } from '../support/db';
import { expectingErrors } from '../support/logs';

const { functions } = await import('@/inngest');

/** Waits (bounded) until `check` holds; fails naming what did not come. */
async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('periodic duties: one list, two runners', () => {
  const ctx = setupTestDatabase();

  it('Inngest runs every duty of the list, each as one step of the function on its cron', async () => {
    const ran = new Map<string, unknown>();
    for (const fn of functions) {
      const cron = (fn.opts.triggers ?? []).map((t) => ('cron' in t ? t.cron : undefined)).find(Boolean);
      if (!cron) continue;
      const { ctx: runCtx, error } = (await new InngestTestEngine({ function: fn }).execute()) as any;
      assert.equal(error, undefined, `${fn.id()} failed: ${error}`);
      for (const [id] of runCtx.step.run.mock.calls as [string][]) {
        const duty = duties.find((d) => d.id === id);
        if (duty) {
          assert.equal(duty.cron, cron, `${id} ran in ${fn.id()} (${cron}), but its cron is ${duty.cron}`);
          ran.set(id, fn.id());
        }
      }
    }
    assert.deepEqual([...ran.keys()].sort(), duties.map((d) => d.id).sort());
  });

  it('the embedded loop runs each duty again after a failure, and at once on its wake', async () => {
    let failing = 0;
    let woken = 0;
    let wake: (() => void) | undefined;
    const list: Duty[] = [
      {
        id: 'fails-first',
        everyMs: () => 20,
        cron: '* * * * *',
        run: async () => {
          failing++;
          if (failing === 1) throw new Error('first run fails');
        },
      },
      {
        id: 'on-wake',
        // Its timer alone would not run it again within the test.
        everyMs: () => 3_600_000,
        cron: '* * * * *',
        wake: (now) => {
          wake = now;
          return () => {
            wake = undefined;
          };
        },
        run: async () => {
          woken++;
        },
      },
    ];
    // The failure is logged at error level for the operators; here it is provoked, so checked, not printed.
    const { logged } = await expectingErrors(['a background duty failed; it runs again at its next tick'], async () => {
      startDuties(ctx.db, { duties: list });
      try {
        await until('a second run of the duty whose first run failed', () => failing >= 2);
        await until('the first run of the woken duty', () => woken === 1);
        wake?.();
        await until('a run of the woken duty on its wake', () => woken === 2);
      } finally {
        await stopDuties();
      }
    });
    assert.deepEqual(
      logged.map((l) => l.fields.duty),
      ['fails-first'],
    );
    assert.equal(wake, undefined, 'stopping the loop unsubscribes the wake');
  });

  it('the embedded loop runs a duty again as soon as its last run asks (nextInMs), before its tick', async () => {
    let runs = 0;
    const list: Duty[] = [
      {
        id: 'asks-for-sooner',
        // Its timer alone would not run it again within the test.
        everyMs: () => 3_600_000,
        nextInMs: (output) => (output as { soonMs: number | null }).soonMs,
        cron: '* * * * *',
        run: async () => ({ soonMs: ++runs < 3 ? 10 : null }),
      },
    ];
    startDuties(ctx.db, { duties: list });
    try {
      await until('three runs, the second and third asked for by the run before', () => runs === 3);
    } finally {
      await stopDuties();
    }
  });

  it('with an engine other than embedded, the process still runs the duties that cannot wait for a cron minute', () => {
    assert.deepEqual(
      dutiesInProcess('inngest').map((d) => d.id),
      ['close-due-turns'],
    );
    assert.deepEqual(dutiesInProcess('off'), dutiesInProcess('inngest'));
    assert.deepEqual(dutiesInProcess('embedded'), [...duties]);
  });
});
