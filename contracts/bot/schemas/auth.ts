import { z } from 'zod';
import { isoDateTime, named, text } from '../../common';

export const authorizeBodySchema = z.object({ api_key: text().min(1).max(200) }).strict();
named('AuthorizeBody', authorizeBodySchema, { api_key: 'vak_Qm4xT1rZ8bN2cV6yH0wL5pK9sJ3dF7gA2eU1iO4nB8' });

export const accessTokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('access_token'),
  expires_in: z.number().int().describe('Seconds until the token expires'),
  expires_at: isoDateTime,
});
named('AccessToken', accessTokenSchema, {
  access_token: 'kX9vQ2mB7tLr4Yw0aNcE3uHs8fJp1ZdG6iVoT5qRbMy',
  token_type: 'access_token',
  expires_in: 3600,
  expires_at: '2026-03-02T10:14:07.000Z',
});
