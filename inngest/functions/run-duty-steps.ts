import { getDb } from '@/db/client';
import { dutiesOn } from '@/lib/duties/duties';

type Step = { run: <T>(id: string, fn: () => Promise<T>) => Promise<unknown> };

/**
 * Runs the registry's duties on `cron` as steps of the calling function, in the list's order
 * (each step retried and memoized by Inngest on its own); answers each step's output by duty id.
 */
export async function runDutySteps(step: Step, cron: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const duty of dutiesOn(cron)) out[duty.id] = await step.run(duty.id, async () => duty.run(await getDb()));
  return out;
}
