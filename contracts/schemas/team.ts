import { z } from 'zod';

export const teamSchema = z.object({
  team_id: z.number().int(),
  team_name: z.string(),
  auto_assign: z.boolean(),
  skills: z.array(z.string()).describe('Skill names usable as `skill_name` in a transfer to this team'),
});
