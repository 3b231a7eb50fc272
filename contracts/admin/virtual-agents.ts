import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ_CODES, WRITE_CODES } from './common';
import { idParams } from './schemas/common';
import {
  adminVirtualAgentSchema,
  createdVirtualAgentSchema,
  createVirtualAgentBodySchema,
  rotateApiKeyBodySchema,
  rotatedApiKeySchema,
  rotatedSigningSecretSchema,
  rotateSigningSecretBodySchema,
  updateVirtualAgentBodySchema,
} from './schemas/virtual-agent';

const c = initContract();

const GET_CODES = [...READ_CODES, 2014, 3006] as const;
const CREATE_CODES = [...WRITE_CODES, 2034, 3004, 3006, 3007] as const;
const UPDATE_CODES = [...WRITE_CODES, 2014, 2034, 3005, 3006, 3007] as const;
const ROTATE_CODES = [...WRITE_CODES, 2014, 3006] as const;

export const virtualAgentsContract = c.router({
  listVirtualAgents: {
    method: 'GET',
    path: '/virtual-agents',
    summary: 'List virtual agents',
    description: 'API keys and signing secrets are never shown here; see `api_key_prefix`.',
    responses: { 200: envelope(4400, z.array(adminVirtualAgentSchema)), ...errors(...READ_CODES) },
  },
  getVirtualAgent: {
    method: 'GET',
    path: '/virtual-agents/:id',
    summary: 'Get a virtual agent',
    description:
      "The VA's webhook settings, subscriptions, team, skills and fallback. Its API key and signing secret are never shown again after they are issued; `api_key_prefix` tells keys apart.",
    pathParams: idParams,
    responses: { 200: envelope(4400, adminVirtualAgentSchema), ...errors(...GET_CODES) },
  },
  createVirtualAgent: {
    method: 'POST',
    path: '/virtual-agents',
    summary: 'Register a virtual agent',
    description:
      "Returns the VA with its `api_key` and `signing_secret`: store them now, they are never shown again (rotate them if lost). The webhook URL is checked (3007 with the reason, on `webhook_url`); reserved or malformed static headers answer 2000. `skills` are skill names of the VA's team. A name in use answers 3004.",
    body: createVirtualAgentBodySchema,
    responses: { 201: envelope(4401, createdVirtualAgentSchema), ...errors(...CREATE_CODES) },
  },
  updateVirtualAgent: {
    method: 'PATCH',
    path: '/virtual-agents/:id',
    summary: 'Update a virtual agent',
    description:
      'Only the fields sent change; `webhook_headers`, `skills` and `custom_attributes` replace the current ones. `name` and `description` cannot change after creation (3005).',
    pathParams: idParams,
    body: updateVirtualAgentBodySchema,
    responses: { 200: envelope(4400, adminVirtualAgentSchema), ...errors(...UPDATE_CODES) },
  },
  rotateApiKey: {
    method: 'POST',
    path: '/virtual-agents/:id/rotate-key',
    summary: 'Issue a new API key',
    description:
      'By default (`mode: at_once`, or no body) the old key stops working at once and every access token issued with it is revoked. With `mode: overlap` the old key keeps authorizing until `previous_valid_until`.',
    pathParams: idParams,
    body: rotateApiKeyBodySchema,
    responses: { 200: envelope(4400, rotatedApiKeySchema), ...errors(...ROTATE_CODES) },
  },
  rotateSigningSecret: {
    method: 'POST',
    path: '/virtual-agents/:id/rotate-secret',
    summary: 'Issue a new webhook signing secret',
    description:
      'By default (`mode: overlap`, or no body) deliveries carry two signatures, with the new and the previous secret, until `previous_valid_until` (Standard Webhooks verifiers accept either); with `mode: at_once` only the new one.',
    pathParams: idParams,
    body: rotateSigningSecretBodySchema,
    responses: { 200: envelope(4400, rotatedSigningSecretSchema), ...errors(...ROTATE_CODES) },
  },
});
