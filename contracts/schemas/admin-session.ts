import { z } from 'zod';
import { isoDateTime, text } from './common';

export const loginBodySchema = z
  .object({
    email: text().trim().email().max(320),
    password: text().min(1).max(200),
  })
  .strict();

export const adminProfileSchema = z.object({
  email: z.string(),
  is_platform_admin: z.boolean().describe('May create further accounts (tenants)'),
  account: z.object({
    id: z.number().int(),
    name: z.string(),
    default_team_id: z.number().int().nullable().describe('Team that receives chats no routing rule matched'),
    transfer_enabled: z.boolean().describe("Whether the account's bots may transfer chats; only a platform administrator changes it"),
  }),
  session_expires_at: isoDateTime,
});

export type AdminProfile = z.infer<typeof adminProfileSchema>;
