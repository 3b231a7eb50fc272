import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { assets, chats, customers, teams } from '@/db/schema';
import type { EventChat } from '@/lib/events/event-body';
import { noteChatChange, type OutboxTx } from '@/lib/events/with-outbox';
import { ApiError } from '@/platform/errors';
import { preparedInTransaction } from '@/platform/util/prepared';

/**
 * Locks the account's chat for the rest of the transaction; 2031 when there is none. Every chat
 * change starts here, in a `withOutbox` transaction (the type asks for one), which publishes the
 * change to the chat's live views after the commit, so the statement is built once per process and
 * prepared: PostgreSQL parses and plans it once per connection rather than per call.
 */
export async function lockChat(tx: OutboxTx, { accountId, chatId }: { accountId: number; chatId: string }) {
  const [row] = await lockStatement(tx).execute({ chatId, accountId });
  if (!row) throw new ApiError(2031);
  noteChatChange(tx, chatId, accountId);
  return { ...row.chat, destinationId: row.destinationId };
}

const lockStatement = preparedInTransaction('lock_chat', (tx) =>
  tx
    .select({ chat: chats, destinationId: customers.destinationId })
    .from(chats)
    .innerJoin(customers, eq(customers.id, chats.customerId))
    .where(and(eq(chats.id, sql.placeholder('chatId')), eq(chats.accountId, sql.placeholder('accountId'))))
    .for('update', { of: chats }),
);

export type LockedChat = Awaited<ReturnType<typeof lockChat>>;

export function eventChatOf(chat: LockedChat): EventChat {
  return {
    id: chat.id,
    channel: chat.channel,
    assetId: chat.assetId,
    teamId: chat.teamId,
    destinationId: chat.destinationId,
    threadId: chat.threadId,
    browserFingerprint: chat.browserFingerprint,
    subject: chat.subject,
    skill: chat.skill,
    replayRunId: chat.replayRunId,
  };
}

/** The account's team, or 2010. */
export async function requireTeam(tx: Db, { accountId, teamId }: { accountId: number; teamId: number }) {
  if (!isStorableId(teamId)) throw new ApiError(2010, { detail: `team ${teamId}` });
  const [team] = await tx
    .select()
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.accountId, accountId)));
  if (!team) throw new ApiError(2010, { detail: `team ${teamId}` });
  return team;
}

export async function requireAsset(tx: Db, { accountId, assetId, channel }: { accountId: number; assetId: number; channel: string }) {
  if (!isStorableId(assetId)) {
    throw new ApiError(2032, { detail: `asset ${assetId}`, errors: [{ field: 'asset_id', message: 'no such asset' }] });
  }
  const [asset] = await tx
    .select()
    .from(assets)
    .where(and(eq(assets.id, assetId), eq(assets.accountId, accountId)));
  if (!asset || asset.channel !== channel) {
    throw new ApiError(2032, {
      detail: asset ? `asset ${assetId} is on ${asset.channel}, not ${channel}` : `asset ${assetId}`,
      errors: [{ field: 'asset_id', message: asset ? `asset is on ${asset.channel}` : 'no such asset' }],
    });
  }
  if (asset.disabledAt) {
    throw new ApiError(2035, {
      detail: `asset ${assetId} (${asset.name}) was disabled`,
      errors: [{ field: 'asset_id', message: 'the asset is disabled' }],
    });
  }
  return asset;
}

/** An ID PostgreSQL's `integer` can hold: beyond it no row exists, and the query itself would fail. */
function isStorableId(id: number): boolean {
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647;
}
