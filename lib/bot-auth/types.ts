/** Who a bot API call acts as, established from its access token. */
export type BotAuth = { accountId: number; userId: number; loginId: string };
