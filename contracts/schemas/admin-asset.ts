import { z } from 'zod';
import { CHANNELS } from '../enums';
import { isoDateTime, nameText, text, withOpenApi } from './common';

export const adminAssetSchema = z.object({
  id: z.number().int().describe('The `asset_id` of POST /api/v1/chats'),
  channel: z.enum(CHANNELS),
  name: z.string(),
  address: z.string().nullable().describe("The channel's own address of the asset (long code, page ID, From address, app ID)"),
  created_at: isoDateTime,
});

export type AdminAsset = z.infer<typeof adminAssetSchema>;

export const createAssetBodySchema = z
  .object({
    channel: z.enum(CHANNELS),
    name: nameText().trim().min(1).max(200),
    address: text().trim().min(1).max(500).optional(),
  })
  .strict();

export type CreateAssetBody = z.infer<typeof createAssetBodySchema>;

/** The channel of an asset cannot change: its chats and events name it on that channel. */
export const updateAssetBodySchema = z
  .object({
    name: nameText().trim().min(1).max(200).optional(),
    address: text().trim().min(1).max(500).nullable().optional().describe('null removes the address'),
  })
  .strict();
// The service refuses `{}` (2000): at least one field must be sent.
withOpenApi(updateAssetBodySchema, { minProperties: 1 });

export type UpdateAssetBody = z.infer<typeof updateAssetBodySchema>;
