export const dynamic = 'force-dynamic';

/** Liveness: the process answers. Touches nothing else (a database outage must not get it restarted). */
export function GET(): Response {
  return Response.json({ status: 'ok' });
}
