'use client';

import type { ClientInferResponseBody } from '@ts-rest/core';
import { contractClient } from '@/components/shared/client';
import { codeOf } from '@/components/shared/errors';
import { agentContract } from '@/contracts/agent';

/** The workspace's typed API client: react-query hooks generated from contracts/agent. */
export const tsr = contractClient(agentContract);

/** Query keys shared by the views that read or invalidate the same data. */
export const keys = { me: ['agent-me'], lists: ['agent-lists'], directory: ['agent-directory'], chat: (id: string) => ['agent-chat', id] };

type Contract = typeof agentContract;
/** The signed-in person, as the API answers it (login, me, availability). */
export type Profile = ClientInferResponseBody<Contract['session']['me'], 200>['response'];
export type Lists = ClientInferResponseBody<Contract['chats']['lists'], 200>['response'];
export type AgentChat = ClientInferResponseBody<Contract['chats']['getChat'], 200>['response'];
export type Message = AgentChat['transcript'][number];

/** The session is gone (never signed in, expired or signed out elsewhere): show the sign-in form. */
export function isSignedOut(err: unknown): boolean {
  return codeOf(err) === 2080;
}
