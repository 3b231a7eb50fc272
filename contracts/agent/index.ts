import { initContract } from '@ts-rest/core';
import { chatsContract } from './chats';
import { directoryContract } from './directory';
import { liveContract } from './live';
import { sessionContract } from './session';

const c = initContract();

const AGENT_API_PREFIX = '/api/agent';

/**
 * The agent workspace's API (/agent): people (users of kind agent or manager) sign in with the
 * `va_agent_session` cookie and work their teams' chats. Live changes come from `GET /stream`
 * (Server-Sent Events, live.ts). One contract per resource, composed here.
 */
export const agentContract = c.router(
  { session: sessionContract, directory: directoryContract, chats: chatsContract, live: liveContract },
  { pathPrefix: AGENT_API_PREFIX, strictStatusCodes: true },
);
