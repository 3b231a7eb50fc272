import { initContract } from '@ts-rest/core';
import { envelope } from '../common';
import { errors } from '../errors';
import { BODY_CODES } from './common';
import { accessTokenSchema, authorizeBodySchema } from './schemas/auth';

const c = initContract();

export const authContract = c.router({
  authorize: {
    method: 'POST',
    path: '/authorize',
    summary: 'Exchange the API key for an access token',
    description:
      'Send the API key issued when the Virtual Agent was registered. The token is returned in `response.access_token` and in the `access_token` response header, and must be sent as the `access_token` header of every other call. Tokens expire after `expires_in` seconds (3600 by default); call /authorize again before then.',
    body: authorizeBodySchema,
    responses: {
      200: envelope(4300, accessTokenSchema),
      ...errors(2005, 2012, 2099, 2007, ...BODY_CODES),
    },
  },
});
