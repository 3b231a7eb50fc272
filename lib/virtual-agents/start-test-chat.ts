import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { TestChat } from '@/contracts/admin/schemas/delivery';
import type { Db } from '@/db/client';
import { assets, users, virtualAgents } from '@/db/schema';
import { createChat } from '@/lib/chats/create-chat';
import { ApiError } from '@/platform/errors';
import { newTraceId } from '@/platform/util/ids';

export const TEST_CHAT_TEXT = 'Hello, this is a test chat started from the admin console.';

/**
 * "Start a test chat" on a VA's page: a chat assigned to the VA with a first customer message,
 * created by the same operation as the bot API's `POST /chats` (so the VA receives `chat.assigned`
 * with that message), on the account's `api` asset when it has an enabled one, else its first
 * enabled asset. The customer is made up (`test-…`); the console then writes as that customer on
 * the chat's page. A VA that is disabled, or an account without an enabled asset, is 3008.
 */
export async function startTestChat(
  db: Db,
  { accountId, id, adminEmail, text }: { accountId: number; id: number; adminEmail: string; text?: string },
): Promise<TestChat> {
  const [va] = await db
    .select({ loginId: users.loginId, enabled: users.enabled })
    .from(virtualAgents)
    .innerJoin(users, eq(users.id, virtualAgents.userId))
    .where(and(eq(virtualAgents.userId, id), eq(virtualAgents.accountId, accountId)));
  if (!va) throw new ApiError(3006, { detail: `no virtual agent ${id}` });
  if (!va.enabled) throw new ApiError(3008, { detail: 'the virtual agent is disabled: enable it first' });
  const [asset] = await db
    .select({ id: assets.id, channel: assets.channel })
    .from(assets)
    .where(and(eq(assets.accountId, accountId), isNull(assets.disabledAt)))
    .orderBy(sql`${assets.channel} <> 'api'`, asc(assets.id))
    .limit(1);
  if (!asset) throw new ApiError(3008, { detail: 'the account has no enabled channel asset: add one under Channel assets' });
  const { chat } = await createChat(db, {
    accountId,
    actorLoginId: `admin:${adminEmail}`,
    body: {
      channel: asset.channel,
      asset_id: asset.id,
      customer: { destination_id: `test-${newTraceId().slice(0, 8)}`, name: 'Test customer' },
      assignee: va.loginId,
      messages: [{ type: 'inbound', text: text ?? TEST_CHAT_TEXT }],
    },
  });
  return { chat_id: chat.chat_id, channel: chat.channel, assignee: va.loginId };
}
