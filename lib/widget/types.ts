/** A chat widget customer, as their credential names them. */
export type WidgetVisitorAuth = { accountId: number; assetId: number; livechatId: string };
