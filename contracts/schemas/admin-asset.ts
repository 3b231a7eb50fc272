import { z } from 'zod';
import { CHANNELS } from '../enums';
import { cursorQuery, isoDateTime, nameText, pageSizeQuery, text, withOpenApi } from './common';

export const adminAssetSchema = z.object({
  id: z.number().int().describe('The `asset_id` of POST /api/v1/chats'),
  channel: z.enum(CHANNELS),
  name: z.string(),
  address: z.string().nullable().describe("The channel's own address of the asset (long code, page ID, From address, app ID)"),
  enabled: z.boolean().describe('false: the asset takes no new chats (2035); its existing chats carry on'),
  disabled_at: isoDateTime.nullable().describe('When it was disabled; null while enabled'),
  created_at: isoDateTime,
});

export type AdminAsset = z.infer<typeof adminAssetSchema>;

export const listAssetsQuerySchema = z
  .object({
    q: text().trim().min(1).max(200).optional().describe('Part of the name or address, case-insensitive'),
    channel: z.enum(CHANNELS).optional().describe('Only assets of this channel'),
    enabled: z.enum(['true', 'false']).optional().describe('`true`: only enabled assets; `false`: only disabled ones'),
    page_size: pageSizeQuery,
    cursor: cursorQuery,
  })
  .strict();

export type ListAssetsQuery = z.infer<typeof listAssetsQuerySchema>;

export const adminAssetPageSchema = z.object({
  assets: z.array(adminAssetSchema).describe('By id, oldest first'),
  next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});

export type AdminAssetPage = z.infer<typeof adminAssetPageSchema>;

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
    enabled: z
      .boolean()
      .optional()
      .describe('false disables the asset: new chats on it are refused (2035), its existing chats carry on; true enables it again'),
  })
  .strict();
// The service refuses `{}` (2000): at least one field must be sent.
withOpenApi(updateAssetBodySchema, { minProperties: 1 });

export type UpdateAssetBody = z.infer<typeof updateAssetBodySchema>;
