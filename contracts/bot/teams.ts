import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { AUTH_CODES, authHeaders } from './common';
import { teamSchema } from './schemas/team';

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
