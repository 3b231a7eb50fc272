import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope, example, isoDateTime, text } from '../common';
import { errors } from '../errors';
import { READ_CODES, WRITE_CODES } from './common';
import { idParams } from './schemas/common';
import { adminUserSchema, createUserBodySchema, listUsersQuerySchema, updateUserBodySchema } from './schemas/user';

const c = initContract();

const LIST_CODES = [...READ_CODES, 2001] as const;
const CREATE_CODES = [...WRITE_CODES, 3004, 3006] as const;
const INVITE_CODES = [...WRITE_CODES, 2014, 3004, 3006, 3008] as const;
const UPDATE_CODES = [...WRITE_CODES, 2014, 3004, 3005, 3006, 3008] as const;

export const usersContract = c.router({
  listUsers: {
    method: 'GET',
    path: '/users',
    summary: 'List users: agents, managers and virtual agents',
    description:
      'Every user of the account, or those of one `kind`, with their teams, skills and availability. Unknown query parameters are refused (2001).',
    query: listUsersQuerySchema,
    responses: { 200: envelope(4400, z.array(adminUserSchema)), ...errors(...LIST_CODES) },
  },
  createUser: {
    method: 'POST',
    path: '/users',
    summary: 'Create an agent or a manager',
    description: 'Team and skill IDs must belong to the account (3006 names the field). A login ID or name in use answers 3004.',
    body: createUserBodySchema,
    responses: { 201: envelope(4401, adminUserSchema), ...errors(...CREATE_CODES) },
  },
  updateUser: {
    method: 'PATCH',
    path: '/users/:id',
    summary: 'Update an agent or a manager',
    description:
      'Only the fields sent change; lists replace the current ones. `login_id` and `kind` cannot change (3005). Virtual agents are changed at /virtual-agents/{id} (3008 here).',
    pathParams: idParams,
    body: updateUserBodySchema,
    responses: { 200: envelope(4400, adminUserSchema), ...errors(...UPDATE_CODES) },
  },
  inviteUser: {
    method: 'POST',
    path: '/users/:id/invite',
    summary: 'Invite an agent or a manager to the agent workspace',
    description:
      "Answers `invite_url`, a one-time link (valid 72 hours) where the person sets their password and signs in to /agent. It is shown once: only its hash is kept. A new invite replaces the previous link (and lets a person who has a password set a new one). The sign-in email is `email` if sent, else the user's own (2000 when there is none); another person signing in with it is 3004. Virtual agents cannot be invited (3008).",
    pathParams: idParams,
    body: example(z.object({ email: text().trim().email().max(320).optional() }).strict(), { email: 'maria.lopez@acme.example' }),
    responses: {
      201: envelope(
        4401,
        example(
          z.object({
            invite_url: z.string().describe('Give it to the person; it is not shown again'),
            email: z.string().describe('The sign-in email'),
            expires_at: isoDateTime,
          }),
          {
            invite_url: 'https://chat.acme.example/agent/invite#Xq3v9KpL2mN8rT5wY1zB7cD4fG6hJ0sA-uE2iO9nQkM',
            email: 'maria.lopez@acme.example',
            expires_at: '2026-03-05T08:15:00.000Z',
          },
        ),
      ),
      ...errors(...INVITE_CODES),
    },
  },
});
