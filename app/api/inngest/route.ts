import { serve } from 'inngest/next';
import { functions, inngest } from '@/inngest';

export const dynamic = 'force-dynamic';

/** Inngest calls this endpoint to run the functions (DELIVERY_ENGINE=inngest). */
export const { GET, POST, PUT } = serve({ client: inngest, functions });
