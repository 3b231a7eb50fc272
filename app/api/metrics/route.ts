import { timingSafeEqual } from 'node:crypto';
import { env } from '@/env';
import { ApiError } from '@/platform/errors';
import { registerScrapeGauges } from '@/platform/metrics/collect-gauges';
import { metrics } from '@/platform/metrics/registry';

export const dynamic = 'force-dynamic';

function refuse(err: ApiError): Response {
  return Response.json(err.toEnvelope(), { status: err.httpStatus, headers: err.headers });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Prometheus metrics of this process; off unless METRICS_TOKEN is set, then `Authorization: Bearer <token>`. */
export async function GET(req: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return refuse(new ApiError(2011, { detail: 'metrics are off: set METRICS_TOKEN to serve them' }));
  const given = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (!sameToken(given, token)) {
    return refuse(new ApiError(3001, { detail: 'send Authorization: Bearer <METRICS_TOKEN>', headers: { 'WWW-Authenticate': 'Bearer' } }));
  }
  registerScrapeGauges();
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
}
