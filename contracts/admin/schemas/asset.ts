import { z } from 'zod';
import { cursorQuery, isoDateTime, named, nameText, pageSizeQuery, text, withOpenApi } from '../../common';
import { CHANNELS } from '../../enums';

/** A website origin: scheme, host and optional port, nothing after but an optional `/` (`https://shop.example`). */
const ORIGIN_PATTERN =
  /^[hH][tT][tT][pP][sS]?:\/\/[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*(:[0-9]{1,5})?\/?$/;

const allowedOriginsSchema = z
  .array(
    z
      .string()
      .max(300)
      .regex(ORIGIN_PATTERN, 'must be a website origin such as https://shop.example (scheme, host, optional port; no path)'),
  )
  .max(50)
  .describe(
    'Livechat: the website origins (`https://shop.example`, `http://localhost:8080`) that may embed the chat widget; the widget page may be framed only by these and the embed script does nothing elsewhere. Up to 50; case and a trailing `/` do not matter',
  );

const widgetInstallSchema = z
  .object({
    url: z.string().describe('The full-page chat, also what the embed script opens in its frame'),
    embed_html: z.string().describe('The `<script>` tag to put on each page of an allowed origin'),
    origin: z.string().describe("The service's origin in both addresses (and in what `widget.js` serves)"),
    origin_from: z
      .enum(['PUBLIC_URL', 'request'])
      .describe(
        'Where `origin` comes from: the `PUBLIC_URL` setting, or (unset) the address this request came to, its own `Host` (forwarded headers only from `TRUSTED_PROXIES`); `widget.js` answers each website with the origin of its own request the same way',
      ),
  })
  .describe('Livechat: how to install the chat widget; null on other channels');

export const adminAssetSchema = z.object({
  id: z.number().int().describe('The `asset_id` of POST /api/v1/chats'),
  channel: z.enum(CHANNELS),
  name: z.string(),
  address: z.string().nullable().describe("The channel's own address of the asset (long code, page ID, From address, app ID)"),
  enabled: z.boolean().describe('false: the asset takes no new chats (2035); its existing chats carry on'),
  disabled_at: isoDateTime.nullable().describe('When it was disabled; null while enabled'),
  allowed_origins: z
    .array(z.string())
    .describe('Livechat: the website origins that may embed the chat widget (empty: none; the full-page chat still works)'),
  widget: widgetInstallSchema.nullable(),
  created_at: isoDateTime,
});
named('AdminAsset', adminAssetSchema, {
  id: 3101,
  channel: 'livechat',
  name: 'Website chat',
  address: 'app-7f3e21',
  enabled: true,
  disabled_at: null,
  allowed_origins: ['https://shop.example'],
  widget: {
    url: 'https://chat.example.com/chat/3101',
    embed_html: '<script src="https://chat.example.com/widget.js?app=3101" async></script>',
    origin: 'https://chat.example.com',
    origin_from: 'PUBLIC_URL',
  },
  created_at: '2026-02-20T08:00:00.000Z',
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
named('CreateAssetBody', createAssetBodySchema, { channel: 'livechat', name: 'Website chat', address: 'app-7f3e21' });

/** The channel of an asset cannot change: its chats and events name it on that channel. */
export const updateAssetBodySchema = z
  .object({
    name: nameText().trim().min(1).max(200).optional(),
    address: text().trim().min(1).max(500).nullable().optional().describe('null removes the address'),
    enabled: z
      .boolean()
      .optional()
      .describe('false disables the asset: new chats on it are refused (2035), its existing chats carry on; true enables it again'),
    allowed_origins: allowedOriginsSchema
      .optional()
      .describe('Livechat only (3008 on other channels): replaces the list of website origins that may embed the chat widget'),
  })
  .strict();
// The service refuses `{}` (2000): at least one field must be sent.
withOpenApi(updateAssetBodySchema, { minProperties: 1, example: { name: 'Website chat (EU)' } });

export type UpdateAssetBody = z.infer<typeof updateAssetBodySchema>;
