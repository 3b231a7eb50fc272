/** The first wait before a closed stream is opened again; each further try doubles it, up to MAX_WAIT_MS. */
const FIRST_WAIT_MS = 1_000;
const MAX_WAIT_MS = 15_000;
/** EventSource.CLOSED (the constant, so this also runs where there is no EventSource: tests). */
const CLOSED = 2;

/** What a live view uses of an EventSource (a test gives a stand-in). */
export type LiveSource = Pick<EventSource, 'addEventListener' | 'close' | 'readyState'>;

/**
 * The people's live views' stream (workspace, console chat page): an EventSource that never gives
 * up. The browser reconnects by itself after a dropped connection, but an answer that is not an
 * event stream (503 2050 while the database cannot be reached, a 429) closes it for good, and the
 * view would stay as it was until a reload. Then a new one is opened after a wait (1 s, doubling
 * to 15 s, reset by each opening). A new one sends no `Last-Event-ID`: its stream starts with the
 * whole view again (`lists`, `chat`), so nothing is lost. `attach` adds the listeners to each
 * source; `onOpen` says whether the stream is open. Returns what closes it for good.
 */
export function openLiveSource(
  url: string,
  attach: (source: LiveSource) => void,
  { onOpen, create = (u) => new EventSource(u) }: { onOpen?: (open: boolean) => void; create?: (url: string) => LiveSource } = {},
): () => void {
  let source: LiveSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;
  const open = () => {
    const s = create(url);
    source = s;
    s.addEventListener('open', () => {
      failures = 0;
      onOpen?.(true);
    });
    s.addEventListener('error', () => {
      onOpen?.(false);
      // CONNECTING: the browser tries again by itself. CLOSED: it has given up; this tries again.
      if (stopped || s !== source || s.readyState !== CLOSED) return;
      s.close();
      const wait = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(failures, 4));
      failures += 1;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!stopped) open();
      }, wait);
    });
    attach(s);
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
