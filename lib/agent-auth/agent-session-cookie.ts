import { sessionCookies } from '@/platform/auth/session-cookies';

/** The workspace's own cookie: an administrator's session opens nothing here, and the reverse. */
const AGENT_SESSION_COOKIE = 'va_agent_session';

const cookies = sessionCookies(AGENT_SESSION_COOKIE);
export const agentSessionCookie = cookies.set;
export const clearedAgentSessionCookie = cookies.cleared;
export const readAgentSessionToken = cookies.read;
