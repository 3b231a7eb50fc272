import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope, intIdParam } from '../common';
import { errors } from '../errors';
import { ACTION_CODES, READ_CODES, WRITE_CODES } from './common';
import { idParams } from './schemas/common';
import { adminSkillSchema, adminTeamSchema, createSkillBodySchema, createTeamBodySchema, updateTeamBodySchema } from './schemas/team';

const c = initContract();

const CREATE_TEAM_CODES = [...WRITE_CODES, 3004] as const;
const UPDATE_TEAM_CODES = [...WRITE_CODES, 2014, 3004, 3006] as const;
const ADD_SKILL_CODES = [...WRITE_CODES, 2014, 3004, 3006] as const;
const REMOVE_SKILL_CODES = [...ACTION_CODES, 2014, 3006, 3008] as const;

export const teamsContract = c.router({
  listTeams: {
    method: 'GET',
    path: '/teams',
    summary: 'List teams with their skills and member counts',
    description: 'Every team of the account, oldest first, with its skills and how many agents, managers and virtual agents belong to it.',
    responses: { 200: envelope(4400, z.array(adminTeamSchema)), ...errors(...READ_CODES) },
  },
  createTeam: {
    method: 'POST',
    path: '/teams',
    summary: 'Create a team, optionally with skills',
    description:
      'Creates a team (auto-assign off unless sent) and the named skills in it. Names are trimmed and must be unique in the account (3004).',
    body: createTeamBodySchema,
    responses: { 201: envelope(4401, adminTeamSchema), ...errors(...CREATE_TEAM_CODES) },
  },
  updateTeam: {
    method: 'PATCH',
    path: '/teams/:id',
    summary: 'Rename a team or switch its auto-assign toggle',
    description:
      "Only the fields sent change. A new name must be unique in the account (3004). Switching auto-assign on offers the team's queued chats to its ready members.",
    pathParams: idParams,
    body: updateTeamBodySchema,
    responses: { 200: envelope(4400, adminTeamSchema), ...errors(...UPDATE_TEAM_CODES) },
  },
  addSkill: {
    method: 'POST',
    path: '/teams/:id/skills',
    summary: 'Add a skill to a team',
    description: 'Creates a skill in the team; the name is trimmed and must be unique in the team (3004).',
    pathParams: idParams,
    body: createSkillBodySchema,
    responses: { 201: envelope(4401, adminSkillSchema), ...errors(...ADD_SKILL_CODES) },
  },
  removeSkill: {
    method: 'DELETE',
    path: '/teams/:id/skills/:skill_id',
    summary: 'Remove a skill from a team',
    description:
      "Users lose the skill. Refused with 3008 while a routing rule or a virtual agent's fallback names it; chats that wait for it keep the name.",
    pathParams: idParams.extend({ skill_id: intIdParam() }),
    body: c.noBody(),
    responses: { 200: envelope(4400, z.null()), ...errors(...REMOVE_SKILL_CODES) },
  },
  listSkills: {
    method: 'GET',
    path: '/skills',
    summary: 'List every skill with its team',
    description: 'Every skill of the account with the team it belongs to: the IDs `skill_ids` of users take.',
    responses: { 200: envelope(4400, z.array(adminSkillSchema)), ...errors(...READ_CODES) },
  },
});
