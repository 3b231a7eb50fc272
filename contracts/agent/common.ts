import { z } from 'zod';
import { text } from '../common';

/** Every signed-in route: no or expired session, over the session's budget, wrong method, unexpected failure. */
export const READ = [2080, 2012, 2099, 2007] as const;
/** A route that changes something: also refused when sent cross-site, and the body's problems. */
export const WRITE = [...READ, 3003, 2000, 2006, 2008, 2009] as const;
export const CHAT_READ = [...READ, 2085] as const;
export const CHAT_WRITE = [...WRITE, 2085, 2086, 2040] as const;
const SIGN_IN = [3003, 2000, 2006, 2008, 2009, 2012, 2099, 2007] as const;
export const LOGIN = [...SIGN_IN, 2081] as const;
export const ACCEPT = [...SIGN_IN, 2082, 3009] as const;
export const PICK = [...WRITE, 2085, 2083, 2084, 2040] as const;
export const TRANSFER = [...CHAT_WRITE, 2010, 2033, 2034, 2041, 2120] as const;

export const chatParams = z.object({ chat_id: text().min(1).max(100) });
