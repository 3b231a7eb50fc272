/** A small Server-Sent Events reader for tests: frames as they arrive from a fetch body. */
export type SseFrame = { id?: string; event?: string; data?: string; comment?: string };

export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const frames: SseFrame[] = [];
  let done = false;
  const pump = async (): Promise<boolean> => {
    if (done) return false;
    const { value, done: end } = await reader.read();
    if (end) {
      done = true;
      return false;
    }
    buffer += decoder.decode(value, { stream: true });
    for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      const frame: SseFrame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else {
          const at = line.indexOf(':');
          const name = line.slice(0, at);
          const value = line.slice(at + 1).replace(/^ /, '');
          if (name === 'id' || name === 'event' || name === 'data') frame[name] = value;
        }
      }
      frames.push(frame);
    }
    return true;
  };
  return {
    frames,
    get ended() {
      return done;
    },
    /** Reads until `n` event frames (with data) have come, or the stream ends; returns them. */
    async events(n: number): Promise<SseFrame[]> {
      const got = () => frames.filter((f) => f.data !== undefined);
      while (got().length < n && (await pump()));
      return got().slice(0, n);
    },
    /** Reads until the stream ends. */
    async toEnd(): Promise<void> {
      while (await pump());
    },
    async cancel(): Promise<void> {
      await reader.cancel().catch(() => {});
    },
  };
}
