import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ_CODES, WRITE_CODES } from './common';
import { adminAccountSchema, createAccountBodySchema, updateAccountBodySchema } from './schemas/account';
import { idParams } from './schemas/common';

const c = initContract();

const CREATE_CODES = [...WRITE_CODES, 3004, 3009] as const;
const UPDATE_CODES = [...WRITE_CODES, 2014, 3006] as const;

export const accountsContract = c.router({
  listAccounts: {
    method: 'GET',
    path: '/accounts',
    summary: 'List accounts (tenants)',
    description: 'A platform administrator sees every account; any other administrator sees only their own.',
    responses: { 200: envelope(4400, z.array(adminAccountSchema)), ...errors(...READ_CODES) },
  },
  createAccount: {
    method: 'POST',
    path: '/accounts',
    summary: 'Create an account with its first administrator (platform administrators only)',
    description:
      'Others get 3003. An administrator email already in use anywhere gets 3004. A password shorter than 12 characters or easy to guess (common, repeated, based on the email) gets 3009.',
    body: createAccountBodySchema,
    responses: { 201: envelope(4401, adminAccountSchema), ...errors(...CREATE_CODES) },
  },
  updateAccount: {
    method: 'PATCH',
    path: '/accounts/:id',
    summary: "Switch an account's transfer setting (platform administrators only)",
    description:
      "`transfer_enabled` decides whether the account's bots may use the transfer operation; while it is off they get 2042. New accounts have it on. The account's own administrators cannot change it (3003).",
    pathParams: idParams,
    body: updateAccountBodySchema,
    responses: { 200: envelope(4400, adminAccountSchema), ...errors(...UPDATE_CODES) },
  },
});
