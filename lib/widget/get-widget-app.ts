import type { WidgetApp } from '@/contracts/widget/schemas';
import type { Db } from '@/db/client';
import { findWidgetAsset } from './find-widget-asset';

/** What the customer's page shows before a chat: the app's name and whether it takes chats. */
export async function getWidgetApp(db: Db, { appId }: { appId: number }): Promise<WidgetApp> {
  const asset = await findWidgetAsset(db, { appId });
  return { app_id: asset.id, name: asset.name, enabled: asset.disabledAt === null };
}
