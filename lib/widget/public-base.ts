import { env } from '@/env';
import { ownOrigin } from '@/lib/admin-auth/session-cookie';

/** The service's public origin for the widget's links: PUBLIC_URL, else the origin the request came to. */
export function publicBase(req: { url: string; headers: Headers }): string {
  const configured = env().PUBLIC_URL;
  return configured ? configured.replace(/\/+$/, '') : ownOrigin(req);
}
