import { widgetContract } from '@/contracts/widget';
import { getDb } from '@/db/client';
import { env } from '@/env';
import { addressKey, clientAddress } from '@/platform/auth/client-address';
import type { ApiRequest } from '@/platform/http/api-request';
import type { RequestContext } from '@/platform/http/request-context';
import type { RouteEntry } from '@/platform/http/route-table';
import { consumeOne, limiterFor, tooManyRequests } from '@/platform/limits/limiters';
import { authenticateVisitor } from './authenticate-visitor';
import type { WidgetVisitorAuth } from './types';

const PUBLIC_PATHS = new Set<string>([widgetContract.getApp.path, widgetContract.createVisitor.path]);
const WRITES = new Set<string>([
  `POST ${widgetContract.startChat.path}`,
  `POST ${widgetContract.sendMessage.path}`,
  `POST ${widgetContract.requestPerson.path}`,
]);

/**
 * The widget API's guard. Every request counts against its client address
 * (WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS); a new credential also against the address's hourly
 * budget (WIDGET_VISITORS_PER_HOUR_PER_ADDRESS). Every other route needs the customer credential
 * (`Authorization: Bearer`); cookies are never read, so the admin session opens nothing here.
 * Chats started, messages written and "Talk to a person" count per customer (WIDGET_MESSAGES_PER_MINUTE).
 */
export async function widgetGuard(req: ApiRequest, entry: RouteEntry, ctx: RequestContext): Promise<void> {
  const e = env();
  const address = clientAddress(req, { socketAddress: ctx.socketAddress });
  ctx.clientAddress = address;
  const key = addressKey(address);
  await take('widget-address', e.WIDGET_REQUESTS_PER_MINUTE_PER_ADDRESS, 60, key, 'requests per minute from one address', ctx);
  if (PUBLIC_PATHS.has(entry.path)) {
    if (entry.method === 'POST') {
      await take('widget-visitors', e.WIDGET_VISITORS_PER_HOUR_PER_ADDRESS, 3600, key, 'new chat customers per hour from one address');
    }
    return;
  }
  const visitor = await authenticateVisitor(await getDb(), { authorization: req.headers.get('authorization') });
  ctx.widget = visitor;
  if (WRITES.has(`${entry.method} ${entry.path}`)) {
    await take('widget-messages', e.WIDGET_MESSAGES_PER_MINUTE, 60, customerKey(visitor), 'messages per minute from one customer', ctx);
  }
}

export function customerKey(visitor: WidgetVisitorAuth): string {
  return `${visitor.assetId}:${visitor.livechatId}`;
}

async function take(name: string, points: number, durationSeconds: number, key: string, what: string, ctx?: RequestContext) {
  const limiter = limiterFor({ name, points, durationSeconds, memoryBlock: true });
  const { refused, consumed, msBeforeNext } = await consumeOne(limiter, key);
  if (refused) throw tooManyRequests(msBeforeNext, `at most ${points} ${what}`, points);
  if (ctx) ctx.rateLimit = { limit: points, remaining: Math.max(0, points - consumed), resetSeconds: Math.ceil(msBeforeNext / 1000) };
}
