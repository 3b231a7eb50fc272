import { and, eq } from 'drizzle-orm';
import type { CreateReplayBody } from '@/contracts/admin/schemas/replay';
import type { Db } from '@/db/client';
import { accounts, replayRuns, users } from '@/db/schema';
import { ApiError } from '@/platform/errors';
import { randomToken } from '@/platform/util/ids';
import { toReplayRunView } from './replay-run-view';

/** POST /api/admin/replays: a run in `loading`, for a VA of the account's sandbox (2113 otherwise). */
export async function createReplayRun(db: Db, { accountId, body }: { accountId: number; body: CreateReplayBody }) {
  const [va] = await db
    .select({ id: users.id, sandboxId: accounts.id })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(users.id, body.virtual_agent_id), eq(users.kind, 'virtual_agent'), eq(accounts.sandboxOfAccountId, accountId)));
  if (!va) {
    throw new ApiError(2113, {
      detail: `virtual agent ${body.virtual_agent_id}`,
      errors: [{ field: 'virtual_agent_id', message: 'not a VA of the replay sandbox (POST /api/admin/replay/virtual-agents)' }],
    });
  }
  const options: Record<string, number> = {};
  if (body.settle_ms !== undefined) options.settle_ms = body.settle_ms;
  if (body.turn_timeout_ms !== undefined) options.turn_timeout_ms = body.turn_timeout_ms;
  if (body.concurrency !== undefined) options.concurrency = body.concurrency;
  const [run] = await db
    .insert(replayRuns)
    .values({
      id: `rpl_${randomToken(12)}`,
      accountId,
      sandboxAccountId: va.sandboxId,
      virtualAgentId: va.id,
      label: body.label ?? '',
      status: 'loading',
      options,
      chatsTotal: 0,
    })
    .returning();
  return toReplayRunView(run);
}
