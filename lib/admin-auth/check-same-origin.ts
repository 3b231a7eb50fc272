import { ApiError } from '@/platform/errors';
import { ownOrigin } from './session-cookie';

type RequestLike = { url: string; headers: Headers };

function normalise(origin: string): string | null {
  try {
    return new URL(origin).origin;
  } catch {
    return null;
  }
}

/**
 * Refuses (3003) a state-changing request that a browser sent from another site, since the
 * session cookie would ride along. Browsers send `Origin` and `Sec-Fetch-Site` on such requests;
 * a client sending neither (curl, automation) carries no ambient cookie risk and passes.
 */
export function checkSameOrigin(req: RequestLike): void {
  const origin = req.headers.get('origin');
  if (origin !== null) {
    const own = normalise(ownOrigin(req));
    if (own === null || normalise(origin) !== own) {
      throw new ApiError(3003, { detail: `cross-site request refused: origin ${origin} is not ${own ?? 'this service'}` });
    }
  }
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    throw new ApiError(3003, { detail: `cross-site request refused (Sec-Fetch-Site: ${site})` });
  }
}
