import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Message, TranscriptChunk } from '@/contracts/bot/schemas/message';

/**
 * How the people's live views (workspace, console chat page) apply the changes their stream sends
 * to the transcript they hold, with no read: a `message` replaces the one of its transid or comes
 * last; a `chunk` grows the streamed reply it belongs to when it is the next one (an older or a
 * later one is left for the reply's whole `message`, which follows). The most messages kept is
 * `limit` (the latest), as the chat read answers.
 */
export function withMessage(transcript: Message[], message: Message, limit = Number.POSITIVE_INFINITY): Message[] {
  const at = transcript.findIndex((m) => m.transid === message.transid);
  if (at !== -1) return transcript.map((m, i) => (i === at ? message : m));
  const next = [...transcript, message];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

export function withChunk(transcript: Message[], chunk: TranscriptChunk): Message[] {
  const at = transcript.findIndex((m) => m.transid === chunk.transid);
  const held = transcript[at];
  if (held?.stream_state !== 'open' || (held.stream_seq ?? 0) !== chunk.seq - 1) return transcript;
  const grown: Message = { ...held, text: (held.text ?? '') + chunk.text, stream_seq: chunk.seq };
  return transcript.map((m, i) => (i === at ? grown : m));
}

/**
 * Applies a live view's changes to one cached answer, in the order they came. A read of the same
 * answer in flight (the page's first load, a refresh after an action, a timed refresh) is cancelled
 * first: it could hold an older state and land over the change. Nothing is lost by it, since every
 * change of the chat comes on the stream. `replace` applies even when nothing is cached yet (the
 * stream's first, whole answer); a change with nothing to change waits for it.
 */
export function applyInOrder<T>(qc: QueryClient, queryKey: QueryKey) {
  let queue = Promise.resolve();
  return (update: (old: T) => T, replace = false) => {
    queue = queue.then(async () => {
      if (qc.isFetching({ queryKey, exact: true })) await qc.cancelQueries({ queryKey, exact: true });
      qc.setQueryData<T>(queryKey, (old) => (old === undefined && !replace ? old : update(old as T)));
    });
  };
}
