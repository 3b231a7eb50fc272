import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { envelope } from '../common';
import { errors } from '../errors';
import { READ_CODES } from './common';
import { deliveryStatsQuerySchema, deliveryStatsSchema, virtualAgentHealthSchema } from './schemas/delivery';

const c = initContract();

const STATS_CODES = [...READ_CODES, 2001] as const;

export const deliveriesContract = c.router({
  getDeliveryStats: {
    method: 'GET',
    path: '/deliveries/stats',
    summary: 'Webhook delivery statistics over a window',
    description:
      'Attempts per bucket (delivered, retried, failed), latency percentiles of the attempts, the VAs failing most and the backlog of pending events. Buckets are one minute wide for `15m` and `1h`, ten minutes for `24h`. Unknown query parameters are refused (2001).',
    query: deliveryStatsQuerySchema,
    responses: { 200: envelope(4400, deliveryStatsSchema), ...errors(...STATS_CODES) },
  },
  listVirtualAgentHealth: {
    method: 'GET',
    path: '/deliveries/virtual-agents',
    summary: 'Delivery health of every virtual agent over the last 24 hours',
    description: 'One entry per VA of the account: success rate of its attempts, its latest error and its backlog.',
    responses: { 200: envelope(4400, z.array(virtualAgentHealthSchema)), ...errors(...READ_CODES) },
  },
});
