import { env } from '@/env';
import { ownOrigin } from '@/lib/admin-auth/session-cookie';

/** The service's public origin, and where it came from: PUBLIC_URL, or the request (its own Host). */
export type PublicBase = { origin: string; from: 'PUBLIC_URL' | 'request' };

/** The service's public origin for the widget's links: PUBLIC_URL, else the origin the request came to. */
export function publicBase(req: { url: string; headers: Headers }): string {
  return publicBaseOf(req).origin;
}

/** As publicBase, saying which of the two it is (the console's asset page shows it). */
export function publicBaseOf(req: { url: string; headers: Headers }): PublicBase {
  const configured = env().PUBLIC_URL;
  return configured ? { origin: configured.replace(/\/+$/, ''), from: 'PUBLIC_URL' } : { origin: ownOrigin(req), from: 'request' };
}
