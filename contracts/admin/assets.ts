import { initContract } from '@ts-rest/core';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ_CODES, WRITE_CODES } from './common';
import {
  adminAssetPageSchema,
  adminAssetSchema,
  createAssetBodySchema,
  listAssetsQuerySchema,
  updateAssetBodySchema,
} from './schemas/asset';
import { idParams } from './schemas/common';

const c = initContract();

const LIST_ASSET_CODES = [...READ_CODES, 2001] as const;
const UPDATE_ASSET_CODES = [...WRITE_CODES, 2014, 3006, 3008] as const;

export const assetsContract = c.router({
  listAssets: {
    method: 'GET',
    path: '/assets',
    summary: 'List channel assets',
    description:
      'The channel assets of the account, by id, a page at a time (`next_cursor`): the `asset_id` values `POST /api/v1/chats` takes. `q` finds part of a name or address; `channel` and `enabled` narrow the list. Unknown query parameters are refused (2001).',
    query: listAssetsQuerySchema,
    responses: { 200: envelope(4400, adminAssetPageSchema), ...errors(...LIST_ASSET_CODES) },
  },
  createAsset: {
    method: 'POST',
    path: '/assets',
    summary: 'Create a channel asset',
    description: 'Its integer `id` is the `asset_id` of POST /api/v1/chats.',
    body: createAssetBodySchema,
    responses: { 201: envelope(4401, adminAssetSchema), ...errors(...WRITE_CODES) },
  },
  updateAsset: {
    method: 'PATCH',
    path: '/assets/:id',
    summary: 'Rename, readdress, disable or enable a channel asset, or set its widget origins',
    description:
      'Only the fields sent change; `address: null` removes the address. Events written from now on carry the new address. The channel cannot change, and assets cannot be deleted, since chats and their events refer to them: `enabled: false` retires one instead. A disabled asset refuses new chats (`POST /api/v1/chats` answers 2035) while its existing chats carry on (messages, events, transfers, closing); `enabled: true` takes it back into use. On a livechat asset, `allowed_origins` replaces the website origins that may embed its chat widget (`widget` in the answer holds the embed snippet and the full-page link); on another channel it is refused (3008).',
    pathParams: idParams,
    body: updateAssetBodySchema,
    responses: { 200: envelope(4400, adminAssetSchema), ...errors(...UPDATE_ASSET_CODES) },
  },
});
