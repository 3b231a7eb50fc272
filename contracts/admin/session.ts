import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { ACTION_CODES, READ_CODES } from './common';
import { adminProfileSchema, loginBodySchema } from './schemas/session';

const c = initContract();

const LOGIN_CODES = [3002, 3003, 2000, 2006, 2008, 2009, 2012, 2099, 2007] as const;

export const sessionContract = c.router({
  login: {
    method: 'POST',
    path: '/login',
    summary: 'Sign in as an administrator',
    description:
      'Checks the email and password and sets the `va_session` cookie (HttpOnly, SameSite=Lax, Secure over https) that every other admin route needs. An unknown email and a wrong password get the same answer, 3002. Rate limited per client address.',
    body: loginBodySchema,
    responses: { 200: envelope(4400, adminProfileSchema), ...errors(...LOGIN_CODES) },
  },
  logout: {
    method: 'POST',
    path: '/logout',
    summary: 'Sign out: end the session and clear its cookie',
    description:
      'Ends the current session (it cannot be used again) and answers with an expired `va_session` cookie. Refused when sent from another site (3003).',
    body: c.noBody(),
    responses: { 200: envelope(4400, z.null()), ...errors(...ACTION_CODES) },
  },
  me: {
    method: 'GET',
    path: '/me',
    summary: 'The signed-in administrator and their account',
    description: 'Who is signed in, their account and when the session expires; 3001 when no valid session cookie is sent.',
    responses: { 200: envelope(4400, adminProfileSchema), ...errors(...READ_CODES) },
  },
});
