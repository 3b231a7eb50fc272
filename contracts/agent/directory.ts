import { initContract } from '@ts-rest/core';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ } from './common';
import { agentDirectorySchema } from './schemas';

const c = initContract();

/** Where chats can be transferred. */
export const directoryContract = c.router({
  directory: {
    method: 'GET',
    path: '/directory',
    summary: 'Where chats can be transferred: teams with their skills, people and virtual agents',
    responses: { 200: envelope(4400, agentDirectorySchema), ...errors(...READ) },
  },
});
