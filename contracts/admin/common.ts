/** Any route behind the session: no or expired session, over the session's budget, wrong method, unexpected failure. */
export const READ_CODES = [3001, 2012, 2099, 2007] as const;
/** A route that changes something without a body: also refused when sent cross-site. */
export const ACTION_CODES = [...READ_CODES, 3003] as const;
/** A route that changes something with a JSON body: also the body's problems. */
export const WRITE_CODES = [...ACTION_CODES, 2000, 2006, 2008, 2009] as const;
