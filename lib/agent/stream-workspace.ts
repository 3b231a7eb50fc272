import type { Db } from '@/db/client';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { subscribeAccountChats, subscribeChatChanges } from '@/lib/events/chat-changes';
import { logger } from '@/lib/util/logger';
import { requireTeamChat } from './agent-scope';
import { listWorkspace } from './list-workspace';

const HEARTBEAT_MS = 25_000;
/** Wakes closer together than this are read once: a burst of chat changes costs one read per stream. */
const COALESCE_MS = 150;
const encoder = new TextEncoder();

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
  let closed = false;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  let again = false;
  const cleanups: (() => void)[] = [];

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        for (const cleanup of cleanups) cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      const read = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            // Teams as the session had them when the stream opened; a changed membership shows on reconnect.
            const lists = await listWorkspace(db, { userId: agent.userId, teamIds: agent.teamIds });
            // waited_seconds moves with the clock: compare without it, so only real changes are sent.
            const key = JSON.stringify({ ...lists, queue: lists.queue.map((q) => ({ ...q, waited_seconds: 0 })) });
            if (key !== last) {
              last = key;
              send(`event: lists\ndata: ${JSON.stringify(lists)}\n\n`);
            }
          } while (again && !closed);
        } catch (err) {
          logger.warn('workspace stream stopped', { err });
          close();
        } finally {
          reading = false;
        }
      };
      const wake = () => {
        if (pending || closed) return;
        pending = setTimeout(() => {
          pending = undefined;
          void read();
        }, COALESCE_MS);
      };
      // Subscribed before the first read, so a change committed in between is not missed.
      cleanups.push(subscribeAccountChats(agent.accountId, wake));
      if (chatId !== null) {
        cleanups.push(subscribeChatChanges(chatId, () => send(`event: chat\ndata: ${JSON.stringify({ chat_id: chatId })}\n\n`)));
      }
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      cleanups.push(() => clearInterval(heartbeat));
      cleanups.push(() => clearTimeout(pending));
      signal.addEventListener('abort', close, { once: true });
      send('retry: 2000\n\n');
      void read();
    },
    cancel() {
      closed = true;
      for (const cleanup of cleanups) cleanup();
    },
  });
}
