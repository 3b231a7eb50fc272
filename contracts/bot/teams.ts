import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors } from '../errors';
import { envelope } from '../schemas/common';
import { teamSchema } from '../schemas/team';
import { AUTH_CODES, authHeaders } from './common';

const c = initContract();

export const teamsContract = c.router({
  listTeams: {
    method: 'GET',
    path: '/teams',
    summary: "List the account's teams and their skills",
    description: 'Team IDs are stable: fetch them once and cache them for transfers and the `team_id` header.',
    headers: authHeaders,
    responses: { 200: envelope(4301, z.array(teamSchema)), ...errors(...AUTH_CODES) },
  },
});
