/** Who an admin API call acts as, established from its session cookie. */
export type AdminAuth = { accountId: number; adminId: number; email: string; isPlatformAdmin: boolean };
