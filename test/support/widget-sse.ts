import { NextRequest } from 'next/server';
import { widgetApiHandler } from '@/app/api/widget/_routers';

export type Sse = { event: string; id?: string; data: any };

/** Opens the live stream through the widget API's real handler; `next(n)` reads the next n events. */
export async function openStream(chatId: string, token: string, opts: { after?: number; lastEventId?: string } = {}) {
  const abort = new AbortController();
  const headers = new Headers({ authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.90' });
  if (opts.lastEventId) headers.set('last-event-id', opts.lastEventId);
  const query = opts.after === undefined ? '' : `?after=${opts.after}`;
  const res = await widgetApiHandler(
    new NextRequest(`http://localhost/api/widget/chats/${chatId}/stream${query}`, { headers, signal: abort.signal }),
  );
  return readSse(res, abort);
}

/** Reads the events of a Server-Sent Events answer; `next(n)` waits (up to `timeoutMs`) for the next n. */
export function readSse(res: Response, abort: AbortController) {
  // A refusal is left unread for the caller's assertions.
  const reader = res.status === 200 ? res.body!.pipeThrough(new TextDecoderStream()).getReader() : undefined;
  let buffer = '';
  const next = async (n: number, timeoutMs = 10_000): Promise<Sse[]> => {
    const out: Sse[] = [];
    const deadline = Date.now() + timeoutMs;
    while (out.length < n) {
      const cut = buffer.indexOf('\n\n');
      if (cut === -1) {
        const left = deadline - Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const { value, done } = await Promise.race([
          reader!.read(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`got ${out.length} of ${n} events: ${JSON.stringify(out)}`)), Math.max(0, left));
          }),
        ]).finally(() => clearTimeout(timer));
        if (done) throw new Error(`stream ended after ${out.length} of ${n} events`);
        buffer += value;
        continue;
      }
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const e: Sse = { event: 'message', data: undefined };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) e.event = line.slice(7);
        else if (line.startsWith('id: ')) e.id = line.slice(4);
        else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
      }
      if (e.data !== undefined) out.push(e);
    }
    return out;
  };
  const close = async () => {
    abort.abort();
    await reader?.cancel().catch(() => {});
  };
  return { res, next, close };
}
