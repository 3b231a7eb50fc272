import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { adminAssetSchema, createAssetBodySchema, updateAssetBodySchema } from '../schemas/admin-asset';
import { idParams } from '../schemas/admin-common';
import { envelope } from '../schemas/common';
import { errorsFor, meta, READ_CODES, WRITE_CODES } from './common';

const c = initContract();

const UPDATE_ASSET_CODES = [...WRITE_CODES, 2014, 3006] as const;

export const assetsContract = c.router({
  listAssets: {
    method: 'GET',
    path: '/assets',
    summary: 'List channel assets',
    description: 'Every channel asset of the account: the `asset_id` values `POST /api/v1/chats` takes.',
    responses: { 200: envelope(4400, z.array(adminAssetSchema)), ...errorsFor(READ_CODES) },
    metadata: meta(...READ_CODES),
  },
  createAsset: {
    method: 'POST',
    path: '/assets',
    summary: 'Create a channel asset',
    description: 'Its integer `id` is the `asset_id` of POST /api/v1/chats.',
    body: createAssetBodySchema,
    responses: { 201: envelope(4401, adminAssetSchema), ...errorsFor(WRITE_CODES) },
    metadata: meta(...WRITE_CODES),
  },
  updateAsset: {
    method: 'PATCH',
    path: '/assets/:id',
    summary: 'Rename a channel asset or change its address',
    description:
      'Only the fields sent change; `address: null` removes the address. The channel cannot change, and assets cannot be removed: chats and their events refer to them. Events written from now on carry the new address.',
    pathParams: idParams,
    body: updateAssetBodySchema,
    responses: { 200: envelope(4400, adminAssetSchema), ...errorsFor(UPDATE_ASSET_CODES) },
    metadata: meta(...UPDATE_ASSET_CODES),
  },
});
