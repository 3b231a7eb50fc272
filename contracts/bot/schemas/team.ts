import { z } from 'zod';
import { named } from '../../common';

export const teamSchema = z.object({
  team_id: z.number().int(),
  team_name: z.string(),
  auto_assign: z.boolean(),
  skills: z.array(z.string()).describe('Skill names usable as `skill_name` in a transfer to this team'),
});
named('Team', teamSchema, { team_id: 672, team_name: 'Virtual Agents', auto_assign: true, skills: ['billing', 'returns'] });
