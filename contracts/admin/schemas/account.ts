import { z } from 'zod';
import { example, isoDateTime, named, nameText, text } from '../../common';

export const createAccountBodySchema = z
  .object({
    name: nameText().trim().min(1).max(200),
    admin_email: text().trim().email().max(320).describe("Login of the new account's first administrator"),
    admin_password: text().min(8).max(200),
  })
  .strict();
named('CreateAccountBody', createAccountBodySchema, {
  name: 'Globex Support',
  admin_email: 'admin@globex.example',
  admin_password: 'a-long-first-password',
});

export const adminAccountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  default_team_id: z.number().int().nullable(),
  transfer_enabled: z
    .boolean()
    .describe(
      "Whether the account's bots may transfer chats (PATCH /api/v1/internal/chats/{chat_id}); only a platform administrator changes it",
    ),
  created_at: isoDateTime,
  admins: z.array(z.object({ email: z.string(), is_platform_admin: z.boolean() })),
});
named('AdminAccount', adminAccountSchema, {
  id: 1,
  name: 'Acme Retail',
  default_team_id: 673,
  transfer_enabled: true,
  created_at: '2026-02-20T08:00:00.000Z',
  admins: [{ email: 'ops@acme.example', is_platform_admin: true }],
});

export type AdminAccount = z.infer<typeof adminAccountSchema>;

export const updateAccountBodySchema = z.object({ transfer_enabled: z.boolean() }).strict();
example(updateAccountBodySchema, { transfer_enabled: false });
