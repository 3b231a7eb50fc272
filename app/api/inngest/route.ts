import { serve } from 'inngest/next';
import { env } from '@/env';
import { functions, inngest } from '@/inngest';
import { ApiError } from '@/platform/errors';

export const dynamic = 'force-dynamic';

const served = serve({ client: inngest, functions });
type Handler = typeof served.GET;

/** Inngest calls this endpoint to run the functions; with another DELIVERY_ENGINE it answers 2011/404. */
function onlyWithInngest(handler: Handler): Handler {
  return ((...args: Parameters<Handler>) => {
    if (env().DELIVERY_ENGINE === 'inngest') return handler(...args);
    const err = new ApiError(2011, {
      detail: `Inngest functions are served only with DELIVERY_ENGINE=inngest (now ${env().DELIVERY_ENGINE})`,
    });
    return Response.json(err.toEnvelope(), { status: err.httpStatus });
  }) as Handler;
}

export const GET = onlyWithInngest(served.GET);
export const POST = onlyWithInngest(served.POST);
export const PUT = onlyWithInngest(served.PUT);
