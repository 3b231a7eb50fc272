import { checkReadiness } from '@/platform/ops/check-readiness';

export const dynamic = 'force-dynamic';

/** Readiness: 200 when this instance should get traffic, else 503 with the failing checks. */
export async function GET(): Promise<Response> {
  const report = await checkReadiness();
  return Response.json(report, { status: report.status === 'ready' ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}
