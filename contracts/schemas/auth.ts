import { z } from 'zod';
import { isoDateTime, text } from './common';

export const authorizeBodySchema = z.object({ api_key: text().min(1).max(200) }).strict();

export const accessTokenSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('access_token'),
  expires_in: z.number().int().describe('Seconds until the token expires'),
  expires_at: isoDateTime,
});
