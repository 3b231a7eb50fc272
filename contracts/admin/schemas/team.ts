import { z } from 'zod';
import { isoDateTime, named } from '../../common';
import { nameSchema, skillNameSchema } from './common';

export const adminSkillSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  team_id: z.number().int(),
  team_name: z.string(),
});
named('AdminSkill', adminSkillSchema, { id: 11, name: 'billing', team_id: 672, team_name: 'Virtual Agents' });

export const adminTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  auto_assign: z.boolean().describe('Queued chats are handed to available members automatically'),
  skills: z.array(z.object({ id: z.number().int(), name: z.string() })),
  member_counts: z.object({
    agent: z.number().int(),
    manager: z.number().int(),
    virtual_agent: z.number().int(),
    total: z.number().int(),
  }),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
named('AdminTeam', adminTeamSchema, {
  id: 672,
  name: 'Virtual Agents',
  auto_assign: true,
  skills: [
    { id: 11, name: 'billing' },
    { id: 12, name: 'returns' },
  ],
  member_counts: { agent: 0, manager: 1, virtual_agent: 1, total: 2 },
  created_at: '2026-02-20T08:00:00.000Z',
  updated_at: '2026-03-02T09:00:00.000Z',
});

export type AdminTeam = z.infer<typeof adminTeamSchema>;
export type AdminSkill = z.infer<typeof adminSkillSchema>;

export const createTeamBodySchema = z
  .object({
    name: nameSchema,
    auto_assign: z.boolean().default(false),
    skills: z.array(skillNameSchema).max(100).optional().describe('Names of skills to create in the team'),
  })
  .strict();
named('CreateTeamBody', createTeamBodySchema, { name: 'Returns', auto_assign: false, skills: ['returns'] });

export const updateTeamBodySchema = z.object({ name: nameSchema.optional(), auto_assign: z.boolean().optional() }).strict();
named('UpdateTeamBody', updateTeamBodySchema, { auto_assign: true });

export type UpdateTeamBody = z.infer<typeof updateTeamBodySchema>;

export const createSkillBodySchema = z.object({ name: skillNameSchema }).strict();
named('CreateSkillBody', createSkillBodySchema, { name: 'billing' });
