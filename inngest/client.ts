import { Inngest, type LogArg, RetryAfterError } from 'inngest';
import { logger } from '@/platform/util/logger';

/** Inngest's log calls (a message and fields, or an error) in our one-line JSON format and level. */
function forward(level: 'debug' | 'info' | 'warn' | 'error') {
  return (...args: LogArg[]) => {
    const [first, ...rest] = args;
    const msg = typeof first === 'string' ? first : first instanceof Error ? first.message : 'inngest';
    const fields: Record<string, unknown> = {};
    for (const [i, arg] of (typeof first === 'string' ? rest : args).entries()) {
      if (arg instanceof Error) fields.err = arg;
      else if (arg && typeof arg === 'object') Object.assign(fields, arg);
      else fields[`arg${i}`] = arg;
    }
    // A RetryAfterError is a function's own "run me again at this time" (deliver-chat-events waits
    // for an event's back-off that way), which Inngest logs as an error: it is the plan, not a fault.
    const planned = fields.err instanceof RetryAfterError || first instanceof RetryAfterError;
    logger[planned && level === 'error' ? 'debug' : level](msg, { source: 'inngest', ...fields });
  };
}

/**
 * The app's Inngest client (DELIVERY_ENGINE=inngest). It reads its own INNGEST_* settings
 * (INNGEST_DEV or INNGEST_SIGNING_KEY / INNGEST_EVENT_KEY) from the environment.
 */
export const inngest = new Inngest({
  id: 'va-chat',
  logger: { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') },
});
