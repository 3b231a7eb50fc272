import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { ACCEPT, LOGIN, READ, WRITE } from './common';
import { acceptInviteBodySchema, agentLoginBodySchema, agentProfileSchema, setAvailabilityBodySchema } from './schemas';

const c = initContract();

/** Signing in and out, and the signed-in person's profile and availability. */
export const sessionContract = c.router({
  login: {
    method: 'POST',
    path: '/login',
    summary: 'Sign in to the workspace',
    body: agentLoginBodySchema,
    responses: { 200: envelope(4400, agentProfileSchema), ...errors(...LOGIN) },
  },
  acceptInvite: {
    method: 'POST',
    path: '/invite/accept',
    summary: 'Set the password from an invite link and sign in',
    body: acceptInviteBodySchema,
    responses: { 200: envelope(4400, agentProfileSchema), ...errors(...ACCEPT) },
  },
  logout: {
    method: 'POST',
    path: '/logout',
    summary: 'Sign out',
    body: c.noBody(),
    responses: { 200: envelope(4400, z.null()), ...errors(...READ, 3003) },
  },
  me: {
    method: 'GET',
    path: '/me',
    summary: 'The signed-in person, their teams and availability',
    responses: { 200: envelope(4400, agentProfileSchema), ...errors(...READ) },
  },
  setAvailability: {
    method: 'PUT',
    path: '/availability',
    summary: 'Set availability (available or away)',
    body: setAvailabilityBodySchema,
    responses: { 200: envelope(4400, agentProfileSchema), ...errors(...WRITE) },
  },
});
