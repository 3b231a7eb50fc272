import type { Db } from '@/db/client';
import type { AgentAuth } from '@/lib/agent-auth/types';
import { followTranscript, requireCursorWithin } from '@/lib/chats/follow-transcript';
import { subscribeAccountChats, subscribeChatChanges } from '@/lib/events/chat-changes';
import { ApiError } from '@/platform/errors';
import { liveStream } from '@/platform/realtime/live-stream';
import type { EventStream } from '@/platform/realtime/sse-stream';
import { requireTeamChat } from './agent-scope';
import { listWorkspace } from './list-workspace';
import { type AgentChatDetails, agentChatDetails, readAgentChat } from './open-agent-chat';

/**
 * Least time between two reads of one workspace stream: the first change is read at once (a handed-over
 * chat's card shows without a wait), and the changes of a burst after it are read together, so a busy
 * account costs each stream at most about 7 reads a second.
 */
const MIN_GAP_MS = 150;

/** The details as the stream sends them: the chat's latest messages are the transcript's business. */
const detailsOf = ({ chat: { messages: _latest, ...chat }, ...rest }: AgentChatDetails) => ({ ...rest, chat });

/**
 * The workspace's live view as Server-Sent Events, on the shared realtime topics: `lists` (the
 * queue and Mine, sent first and then whenever they change) on every change of a chat of the
 * account (`chats:<account id>`); and for the chat the page has open (`chatId`, topic
 * `chat:<chat id>`) the changes themselves, never a ping to re-read it: `chat` first (the whole
 * chat as GET /chats/{id} answers it, its id the transcript's cursor), then each new or changed
 * message as `message` (upserted by transid), each chunk of a streamed reply as `chunk`, and
 * `details` (the chat without its transcript) when they change; `gone` once, when the chat left
 * the person's teams (the page reads it to say why). Resumed with `after` (the
 * client's Last-Event-ID): no `chat`, the messages after it again (lib/chats/follow-transcript.ts).
 * A chunk made in this process is sent from its wake without a read; any other wake reads the
 * transcript from its cursor and the details, never the whole transcript.
 */
export async function streamWorkspace(
  db: Db,
  { agent, chatId, after, signal }: { agent: AgentAuth; chatId: string | null; after?: number; signal?: AbortSignal },
): Promise<EventStream> {
  let snapshot: Awaited<ReturnType<typeof readAgentChat>> | undefined;
  if (chatId !== null && after === undefined) snapshot = await readAgentChat(db, { agent, chatId });
  else if (chatId !== null) {
    await requireTeamChat(db, agent, chatId);
    await requireCursorWithin(db, { chatId, after: after ?? 0 });
  }
  const transcript = chatId === null ? null : followTranscript(db, { chatId, after: after ?? 0 });
  if (snapshot) transcript?.seed(snapshot.seen);
  let lastLists = '';
  let lastDetails = snapshot ? JSON.stringify(detailsOf(snapshot.view)) : '';
  let listsChanged = true;
  let chatChanged = chatId !== null;
  let gone = false;
  return liveStream({
    what: 'workspace',
    signal,
    minGapMs: MIN_GAP_MS,
    subscribe: (wake, send) => [
      subscribeAccountChats(agent.accountId, () => {
        listsChanged = true;
        wake();
      }),
      ...(chatId === null || !transcript
        ? []
        : [
            subscribeChatChanges(chatId, (change) => {
              if (transcript.take(change, send)) return;
              chatChanged = true;
              wake();
            }),
          ]),
    ],
    opening: (send) => {
      if (snapshot && transcript) send('chat', snapshot.view, transcript.cursor);
    },
    read: async (send) => {
      if (listsChanged) {
        listsChanged = false;
        // Teams as the session had them when the stream opened; a changed membership shows on reconnect.
        const lists = await listWorkspace(db, { userId: agent.userId, teamIds: agent.teamIds });
        // waited_seconds moves with the clock: compare without it, so only real changes are sent.
        const key = JSON.stringify({ ...lists, queue: lists.queue.map((q) => ({ ...q, waited_seconds: 0 })) });
        if (key !== lastLists) {
          lastLists = key;
          send('lists', lists);
        }
      }
      if (chatChanged && chatId !== null && transcript && !gone) {
        chatChanged = false;
        let details: ReturnType<typeof detailsOf>;
        try {
          details = detailsOf(await agentChatDetails(db, { agent, chatId }));
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 2085)) throw err;
          // Moved to a team not the person's: the page reads it once and shows why; the lists go on.
          gone = true;
          send('gone', { chat_id: chatId });
          return;
        }
        await transcript.read(send);
        const key = JSON.stringify(details);
        if (key !== lastDetails) {
          lastDetails = key;
          send('details', details);
        }
      }
    },
  });
}
