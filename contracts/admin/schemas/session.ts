import { z } from 'zod';
import { isoDateTime, named, text } from '../../common';

export const loginBodySchema = z
  .object({
    email: text().trim().email().max(320),
    password: text().min(1).max(200),
  })
  .strict();
named('AdminLoginBody', loginBodySchema, { email: 'ops@acme.example', password: 'correct-horse-battery-staple' });

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
named('AdminProfile', adminProfileSchema, {
  email: 'ops@acme.example',
  is_platform_admin: true,
  account: { id: 1, name: 'Acme Retail', default_team_id: 673, transfer_enabled: true },
  session_expires_at: '2026-03-02T21:00:00.000Z',
});

export type AdminProfile = z.infer<typeof adminProfileSchema>;
