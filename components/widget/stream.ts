import type { WidgetChat, WidgetChunk, WidgetMessage, WidgetTyping } from '@/contracts/widget/schemas';
import { ApiFailure, routeUrl } from './api';

/** The live stream's events, as contracts/widget names them. */
export type StreamEvent =
  | { type: 'chat'; data: WidgetChat }
  | { type: 'typing'; data: WidgetTyping }
  | { type: 'chunk'; data: WidgetChunk }
  | { type: 'message'; data: WidgetMessage };

/**
 * Reads a chat's Server-Sent Events with fetch, so the credential stays in a header (EventSource
 * cannot send one). Resolves never: it rejects when the stream fails or ends (an ApiFailure when
 * the service refused it in its envelope, a TypeError when the network failed), and the caller
 * decides whether to reconnect. `onOpen` is called once the service has accepted the stream.
 */
export async function readStream(
  { chatId, after, token, signal }: { chatId: string; after: number; token: string; signal: AbortSignal },
  onEvent: (event: StreamEvent) => void,
  onOpen: () => void = () => {},
): Promise<never> {
  const res = await fetch(routeUrl('streamChat', { chat_id: chatId }, { after }), {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    credentials: 'omit',
    cache: 'no-store',
    signal,
  });
  if (!res.ok || !res.body) throw new ApiFailure(res.status, await res.json().catch(() => null));
  onOpen();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut = buffer.indexOf('\n\n');
    while (cut !== -1) {
      const event = parseEvent(buffer.slice(0, cut));
      if (event) onEvent(event);
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
    }
  }
  throw new Error('stream ended');
}

/** One event block (`event:` and `data:` lines); null for comments and what cannot be read. */
function parseEvent(block: string): StreamEvent | null {
  let type = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trim();
  }
  if (!data) return null;
  try {
    const payload = JSON.parse(data);
    if (type === 'chat' || type === 'typing' || type === 'chunk' || type === 'message') return { type, data: payload } as StreamEvent;
  } catch {
    // a block that is not JSON is skipped, as before
  }
  return null;
}
