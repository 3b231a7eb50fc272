import { and, desc, eq } from 'drizzle-orm';
import type { WidgetChat } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { chats, customers } from '@/db/schema';
import type { WidgetVisitorAuth } from './types';
import { loadOwnChat } from './widget-chat-view';

/**
 * The customer's latest chat of this app, open or closed (a reload shows it again), or null.
 * Reads the customer by its unique key and their chats by `chats_customer_idx`.
 */
export async function findCurrentChat(db: Db, { visitor }: { visitor: WidgetVisitorAuth }): Promise<WidgetChat | null> {
  const [row] = await db
    .select({ id: chats.id })
    .from(customers)
    .innerJoin(chats, eq(chats.customerId, customers.id))
    .where(
      and(
        eq(customers.accountId, visitor.accountId),
        eq(customers.channel, 'livechat'),
        eq(customers.destinationId, visitor.livechatId),
        eq(chats.assetId, visitor.assetId),
      ),
    )
    .orderBy(desc(chats.createdAt), desc(chats.id))
    .limit(1);
  return row ? loadOwnChat(db, { visitor, chatId: row.id }) : null;
}
