import { ApiError } from '@/platform/errors';

/**
 * What one event of a reply's event stream asks of the service. Two formats share this shape:
 * the AI SDK's UI message stream (`text-delta`, `tool-input-start`, `finish`, `error`…) and
 * AG-UI's events (`TEXT_MESSAGE_CONTENT`, `TOOL_CALL_START`, `RUN_FINISHED`, `RUN_ERROR`…).
 * Everything else (reasoning, sources, files, `data-*`, step boundaries, tool results, state) is
 * not for the customer and is skipped.
 */
export type ReplyPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; name: string }
  | { kind: 'finish' }
  | { kind: 'error'; message: string }
  | { kind: 'skip' };

const SKIP: ReplyPart = { kind: 'skip' };

/** The part an event's JSON stands for; anything that is not an object with a string `type` is 2131. */
function replyPartOf(event: unknown, where: string): ReplyPart {
  if (!event || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string') {
    throw new ApiError(2131, { detail: `${where} is not an object with a string "type"` });
  }
  const e = event as Record<string, unknown> & { type: string };
  const str = (key: string) => (typeof e[key] === 'string' ? (e[key] as string) : undefined);
  switch (e.type) {
    // AI SDK UI message stream
    case 'text-delta':
      return { kind: 'text', text: str('delta') ?? '' };
    case 'tool-input-start':
    case 'tool-input-available':
      return str('toolName') ? { kind: 'tool', name: str('toolName') as string } : SKIP;
    case 'finish':
      return { kind: 'finish' };
    case 'error':
      return { kind: 'error', message: str('errorText') ?? 'error' };
    case 'abort':
      return { kind: 'error', message: str('reason') ?? 'aborted' };
    // AG-UI
    case 'TEXT_MESSAGE_CONTENT':
    case 'TEXT_MESSAGE_CHUNK':
      return { kind: 'text', text: str('delta') ?? '' };
    case 'TOOL_CALL_START':
      return str('toolCallName') ? { kind: 'tool', name: str('toolCallName') as string } : SKIP;
    case 'RUN_FINISHED':
      return { kind: 'finish' };
    case 'RUN_ERROR':
      return { kind: 'error', message: str('message') ?? 'error' };
    default:
      return SKIP;
  }
}

/**
 * Server-Sent Events, decoded as they arrive: `push` takes the bytes of one network chunk and
 * answers the `data` of each event it completed (lines of one event joined with `\n`; comments,
 * `event:`, `id:` and `retry:` lines ignored; `[DONE]`, the AI SDK's last line, dropped). An event
 * larger than `maxEventBytes` is 2008.
 */
export function sseDecoder(maxEventBytes: number) {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let dataLength = 0;

  const line = (raw: string, out: string[]) => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text === '') {
      if (data.length) {
        const joined = data.join('\n');
        if (joined !== '[DONE]') out.push(joined);
      }
      data = [];
      dataLength = 0;
      return;
    }
    if (text.startsWith('data:')) {
      const value = text.slice(text[5] === ' ' ? 6 : 5);
      dataLength += value.length;
      if (dataLength > maxEventBytes) throw new ApiError(2008, { detail: `one event holds at most ${maxEventBytes} bytes` });
      data.push(value);
    }
  };

  return {
    push(bytes: Uint8Array): string[] {
      buffer += decoder.decode(bytes, { stream: true });
      const out: string[] = [];
      let at = buffer.indexOf('\n');
      while (at !== -1) {
        line(buffer.slice(0, at), out);
        buffer = buffer.slice(at + 1);
        at = buffer.indexOf('\n');
      }
      if (buffer.length > maxEventBytes) throw new ApiError(2008, { detail: `one event holds at most ${maxEventBytes} bytes` });
      return out;
    },
    /** The end of the body: an event not followed by a blank line still counts. */
    end(): string[] {
      const out: string[] = [];
      buffer += decoder.decode();
      if (buffer) line(buffer, out);
      line('', out);
      buffer = '';
      return out;
    },
  };
}

/** The parts of a list of event `data` texts, each parsed as JSON when reached (2131 names the event that is not). */
export function* partsOf(datas: string[], counter: { n: number }): Iterable<ReplyPart> {
  for (const d of datas) {
    counter.n += 1;
    let json: unknown;
    try {
      json = JSON.parse(d);
    } catch {
      throw new ApiError(2131, { detail: `event ${counter.n} is not JSON (${JSON.stringify(d.slice(0, 40))})` });
    }
    yield replyPartOf(json, `event ${counter.n}`);
  }
}
