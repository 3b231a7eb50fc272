import { z } from 'zod';
import { nameSchema, skillNameSchema } from './admin-common';
import { isoDateTime } from './common';

export const adminSkillSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  team_id: z.number().int(),
  team_name: z.string(),
});

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

export type AdminTeam = z.infer<typeof adminTeamSchema>;
export type AdminSkill = z.infer<typeof adminSkillSchema>;

export const createTeamBodySchema = z
  .object({
    name: nameSchema,
    auto_assign: z.boolean().default(false),
    skills: z.array(skillNameSchema).max(100).optional().describe('Names of skills to create in the team'),
  })
  .strict();

export const updateTeamBodySchema = z.object({ name: nameSchema.optional(), auto_assign: z.boolean().optional() }).strict();

export type UpdateTeamBody = z.infer<typeof updateTeamBodySchema>;

export const createSkillBodySchema = z.object({ name: skillNameSchema }).strict();
