import { z } from 'zod';
import { intId, isoDateTime, named, nameText, SAFE_TEXT_MESSAGE, safePattern, text } from '../../common';
import { AVAILABILITIES, USER_KINDS } from '../../enums';
import { customAttributesSchema, immutableField } from './common';

const idList = z.array(intId()).max(100);

export const adminUserSchema = z.object({
  id: z.number().int(),
  kind: z.enum(USER_KINDS),
  login_id: z.string().describe('The login ID chats name in `assignee`'),
  name: z.string(),
  email: z.string().nullable(),
  availability: z.enum(AVAILABILITIES),
  capacity: z.number().int().describe('Most chats the user holds at once'),
  enabled: z.boolean(),
  team_ids: z.array(z.number().int()),
  skills: z.array(z.object({ id: z.number().int(), name: z.string(), team_id: z.number().int() })),
  custom_attributes: z.record(z.string()),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
/** The person of the examples, as created and as read back. */
const EXAMPLE_PERSON = {
  kind: 'agent',
  login_id: 'maria.lopez',
  name: 'María López',
  email: 'maria.lopez@acme.example',
  availability: 'available',
  capacity: 3,
} as const;
named('AdminUser', adminUserSchema, {
  id: 31,
  ...EXAMPLE_PERSON,
  enabled: true,
  team_ids: [673],
  skills: [{ id: 21, name: 'spanish', team_id: 673 }],
  custom_attributes: { language: 'es' },
  created_at: '2026-02-20T08:00:00.000Z',
  updated_at: '2026-03-02T09:00:00.000Z',
});

export type AdminUser = z.infer<typeof adminUserSchema>;

export const listUsersQuerySchema = z.object({ kind: z.enum(USER_KINDS).optional() }).strict();

export const createUserBodySchema = z
  .object({
    kind: z.enum(['agent', 'manager']).describe('Virtual agents are registered at /api/admin/virtual-agents'),
    login_id: z.string().trim().min(1).max(200).regex(safePattern('\\S+'), `may not contain spaces; ${SAFE_TEXT_MESSAGE}`),
    name: nameText().trim().min(1).max(200),
    email: text().trim().email().max(320).optional(),
    availability: z.enum(AVAILABILITIES).optional().describe('Default `unavailable`'),
    capacity: z.number().int().min(0).max(1000).optional().describe('Default 3'),
    team_ids: idList.optional(),
    skill_ids: idList.optional().describe('IDs of skills (see GET /skills)'),
    custom_attributes: customAttributesSchema.optional(),
  })
  .strict();
named('CreateUserBody', createUserBodySchema, {
  ...EXAMPLE_PERSON,
  team_ids: [673],
  skill_ids: [21],
  custom_attributes: { language: 'es' },
});

export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const updateUserBodySchema = z
  .object({
    name: nameText().trim().min(1).max(200).optional(),
    email: text().trim().email().max(320).nullable().optional(),
    availability: z.enum(AVAILABILITIES).optional(),
    capacity: z.number().int().min(0).max(1000).optional(),
    team_ids: idList.optional().describe('Replaces all team memberships'),
    skill_ids: idList.optional().describe('Replaces all skills'),
    custom_attributes: customAttributesSchema.optional().describe(`Replaces all attributes. ${customAttributesSchema.description}`),
    enabled: z.boolean().optional(),
    login_id: immutableField('`login_id`'),
    kind: immutableField('`kind`'),
  })
  .strict();
named('UpdateUserBody', updateUserBodySchema, { availability: 'unavailable' });

export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;
