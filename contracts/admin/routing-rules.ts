import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { ACTION_CODES, READ_CODES, WRITE_CODES } from './common';
import { idParams } from './schemas/common';
import {
  adminRoutingRuleSchema,
  createRoutingRuleBodySchema,
  defaultTeamBodySchema,
  defaultTeamSchema,
  updateRoutingRuleBodySchema,
} from './schemas/routing';

const c = initContract();

const CREATE_CODES = [...WRITE_CODES, 2034, 3006] as const;
const UPDATE_CODES = [...WRITE_CODES, 2014, 2034, 3006] as const;
const DELETE_CODES = [...ACTION_CODES, 2014, 3006] as const;
const DEFAULT_TEAM_CODES = [...WRITE_CODES, 3006] as const;

export const routingRulesContract = c.router({
  listRoutingRules: {
    method: 'GET',
    path: '/routing-rules',
    summary: 'List routing rules in the order they are tried',
    description:
      'A chat created without `team_id` or `assignee` goes to the team of the first enabled rule whose conditions all hold; else to the default team (PUT /default-team); else to the oldest team.',
    responses: { 200: envelope(4400, z.array(adminRoutingRuleSchema)), ...errors(...READ_CODES) },
  },
  createRoutingRule: {
    method: 'POST',
    path: '/routing-rules',
    summary: 'Create a routing rule',
    description:
      'Adds a rule that sends matching chats (created without `team_id` or `assignee`) to a team and optionally a skill of it. The team and skill must exist in the account (3006).',
    body: createRoutingRuleBodySchema,
    responses: { 201: envelope(4401, adminRoutingRuleSchema), ...errors(...CREATE_CODES) },
  },
  updateRoutingRule: {
    method: 'PATCH',
    path: '/routing-rules/:id',
    summary: 'Update a routing rule',
    description: 'Only the fields sent change; `conditions` replaces all conditions.',
    pathParams: idParams,
    body: updateRoutingRuleBodySchema,
    responses: { 200: envelope(4400, adminRoutingRuleSchema), ...errors(...UPDATE_CODES) },
  },
  deleteRoutingRule: {
    method: 'DELETE',
    path: '/routing-rules/:id',
    summary: 'Delete a routing rule',
    description: 'Removes the rule; chats it routed stay where they are.',
    pathParams: idParams,
    body: c.noBody(),
    responses: { 200: envelope(4400, z.null()), ...errors(...DELETE_CODES) },
  },
  setDefaultTeam: {
    method: 'PUT',
    path: '/default-team',
    summary: 'Set the team that receives chats no routing rule matched',
    description: "Names the account's default team, or `null` to fall back to its oldest team. The team must exist in the account (3006).",
    body: defaultTeamBodySchema,
    responses: { 200: envelope(4400, defaultTeamSchema), ...errors(...DEFAULT_TEAM_CODES) },
  },
});
