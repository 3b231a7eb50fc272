import { z } from 'zod';
import { intId, isoDateTime, named, safePattern, text } from '../../common';
import { nameSchema, skillNameSchema } from './common';

export const ROUTING_OPS = ['equals', 'not_equals', 'contains', 'starts_with', 'in'] as const;

const FIELD = safePattern('channel|asset_id|customer\\.destination_id|customer\\.name|(?:other_details|route_params)\\.[^.\\s]{1,100}');

const routingConditionSchema = z
  .object({
    field: z
      .string()
      .regex(FIELD, 'one of channel, asset_id, customer.destination_id, customer.name, other_details.<key>, route_params.<key>')
      .describe('`channel`, `asset_id`, `customer.destination_id`, `customer.name`, `other_details.<key>` or `route_params.<key>`'),
    op: z.enum(ROUTING_OPS),
    value: z
      .union([text().max(500), z.array(text().max(500)).min(1).max(100)])
      .describe('A string; a list of strings with `in`. Compared case-insensitively'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.op === 'in' && !Array.isArray(c.value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'op in takes a list of strings' });
    if (c.op !== 'in' && Array.isArray(c.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: `op ${c.op} takes one string` });
  });

export type RoutingConditionInput = z.infer<typeof routingConditionSchema>;

export const adminRoutingRuleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int().describe('Rules are tried by ascending position, then id'),
  enabled: z.boolean(),
  conditions: z.array(z.object({ field: z.string(), op: z.enum(ROUTING_OPS), value: z.union([z.string(), z.array(z.string())]) })),
  team_id: z.number().int(),
  team_name: z.string(),
  skill: z.string().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
named('AdminRoutingRule', adminRoutingRuleSchema, {
  id: 5,
  name: 'Billing questions to the bot',
  position: 10,
  enabled: true,
  conditions: [
    { field: 'channel', op: 'in', value: ['livechat', 'abc'] },
    { field: 'route_params.topic', op: 'equals', value: 'billing' },
  ],
  team_id: 672,
  team_name: 'Virtual Agents',
  skill: 'billing',
  created_at: '2026-02-20T08:00:00.000Z',
  updated_at: '2026-03-02T09:00:00.000Z',
});

export type AdminRoutingRule = z.infer<typeof adminRoutingRuleSchema>;

const conditionsSchema = z.array(routingConditionSchema).max(20).describe('All must hold; an empty list matches every chat');

export const createRoutingRuleBodySchema = z
  .object({
    name: nameSchema,
    conditions: conditionsSchema,
    team_id: intId(),
    skill: skillNameSchema.nullable().optional().describe('Skill name in the team'),
    enabled: z.boolean().optional().describe('Default true'),
    position: z.number().int().min(0).max(1_000_000).optional().describe('Default: after the last rule'),
  })
  .strict();
named('CreateRoutingRuleBody', createRoutingRuleBodySchema, {
  name: 'Billing questions to the bot',
  conditions: [
    { field: 'channel', op: 'in', value: ['livechat', 'abc'] },
    { field: 'route_params.topic', op: 'equals', value: 'billing' },
  ],
  team_id: 672,
  skill: 'billing',
  position: 10,
});

export type CreateRoutingRuleBody = z.infer<typeof createRoutingRuleBodySchema>;

export const updateRoutingRuleBodySchema = z
  .object({
    name: nameSchema.optional(),
    conditions: conditionsSchema.optional(),
    team_id: intId().optional(),
    skill: skillNameSchema.nullable().optional(),
    enabled: z.boolean().optional(),
    position: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();
named('UpdateRoutingRuleBody', updateRoutingRuleBodySchema, { enabled: false });

export type UpdateRoutingRuleBody = z.infer<typeof updateRoutingRuleBodySchema>;

export const defaultTeamBodySchema = z.object({ team_id: intId().nullable().describe('null: fall back to the oldest team') }).strict();
named('DefaultTeamBody', defaultTeamBodySchema, { team_id: 673 });

export const defaultTeamSchema = z.object({ default_team_id: z.number().int().nullable(), team_name: z.string().nullable() });
named('DefaultTeam', defaultTeamSchema, { default_team_id: 673, team_name: 'Customer care' });
