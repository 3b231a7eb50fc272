import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { adminAssetSchema, createAssetBodySchema } from '../schemas/admin-asset';
import { envelope } from '../schemas/common';
import { errorsFor, meta, READ_CODES, WRITE_CODES } from './common';

const c = initContract();

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
});
