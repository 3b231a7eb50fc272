export const dynamic = 'force-dynamic';

/** Liveness: answers without touching the database (also the framework floor in bench:api). */
export function GET(): Response {
  return Response.json({ status: 'ok' });
}
