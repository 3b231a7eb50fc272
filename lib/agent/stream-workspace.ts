import type { Db } from '@/db/client';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { subscribeAccountChats, subscribeChatChanges } from '@/lib/events/chat-changes';
import { liveStream } from '@/platform/realtime/live-stream';
import { requireTeamChat } from './agent-scope';
import { listWorkspace } from './list-workspace';

/** Wakes closer together than this are read once: a burst of chat changes costs one read per stream. */
const COALESCE_MS = 150;

/**
 * The workspace's live view as Server-Sent Events, on the shared realtime topics: `lists` (the
 * queue and Mine, sent first and then whenever they change) on every change of a chat of the
 * account (`chats:<account id>`), and `chat` (`{"chat_id"}`) when the chat the page has open
 * (`chatId`) changes (`chat:<chat id>`: a message, a state change, the bot's typing or streamed
 * text), for the page to re-read it. A wake carries nothing; each re-reads from the database, so a
 * lost wake is made up by the next and a doubled one sends nothing twice.
 */
export async function streamWorkspace(
  db: Db,
  { agent, chatId, signal }: { agent: AgentAuth; chatId: string | null; signal: AbortSignal },
): Promise<ReadableStream<Uint8Array>> {
  if (chatId !== null) await requireTeamChat(db, agent, chatId);
  let last = '';
  return liveStream({
    what: 'workspace',
    signal,
    coalesceMs: COALESCE_MS,
    subscribe: (wake, send) => [
      subscribeAccountChats(agent.accountId, wake),
      ...(chatId === null ? [] : [subscribeChatChanges(chatId, () => send('chat', { chat_id: chatId }))]),
    ],
    read: async (send) => {
      // Teams as the session had them when the stream opened; a changed membership shows on reconnect.
      const lists = await listWorkspace(db, { userId: agent.userId, teamIds: agent.teamIds });
      // waited_seconds moves with the clock: compare without it, so only real changes are sent.
      const key = JSON.stringify({ ...lists, queue: lists.queue.map((q) => ({ ...q, waited_seconds: 0 })) });
      if (key !== last) {
        last = key;
        send('lists', lists);
      }
    },
  });
}
