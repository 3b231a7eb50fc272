import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';

/**
 * Topic wake-ups for the whole product, within this process and, on PostgreSQL, across instances
 * (LISTEN/NOTIFY on the outbox channel the delivery engine already listens on). A wake carries no
 * data that matters: a listener re-reads what it follows from the database (a stream from its
 * cursor), so a lost, late or repeated wake costs at most a read, never an item. A publisher may
 * add a `detail` that only this process's listeners get (what changed, so a listener that can use
 * it skips the read); other instances get the bare wake.
 *
 * - `publish(topics, detail?)` after the commit that changed them: local listeners run at once; the topics
 *   go to the other instances in the next NOTIFY, sent once the current synchronous work is done
 *   (a microtask), so the publishes of one commit share it. One send is in flight at a time: topics
 *   published meanwhile are batched into the next one, split over as many notifications as
 *   NOTIFY's 8000-byte payload needs and sent together, so a burst costs a few notifications. A
 *   batch is never widened to `*` (every topic): on a busy instance the batches grow, and each
 *   `*` made every stream of the other instances read at once, which made them busier still
 *   (bench:open-widgets on two instances fell to 88 of 500 messages/s, 12 ms of CPU each).
 * - `subscribe(topic, listener)` returns the function that removes it. `*` as a topic hears all.
 * - After the listening connection comes back from an outage, every local topic is woken, since
 *   notifications sent meanwhile were lost.
 *
 * On PGlite (one process) only the local part runs.
 */

const REALTIME_CHANNEL = 'va_outbox';
/** NOTIFY takes payloads under 8000 bytes; leave room for the sender id. */
const PAYLOAD_LIMIT = 7_800;
const ALL = '*';

type Listener = (topic: string, detail?: unknown) => void;
type PostgresClient = {
  notify: (channel: string, payload: string) => Promise<unknown>;
  listen: (channel: string, fn: (payload: string) => void, onlisten?: () => void) => Promise<{ unlisten: () => Promise<void> }>;
};

type Shared = {
  topics: Map<string, Set<Listener>>;
  /** Hears every wake from another instance, whatever its topics (the delivery engine). */
  remote: Set<() => void>;
  pg?: PostgresClient;
  unlisten?: () => Promise<void>;
  listens: number;
  inFlight: boolean;
  /** A flush is due at the end of the current turn of the event loop. */
  flushQueued?: boolean;
  queued: Set<string>;
  notifications: number;
};
const store = processStore<{ __vaRealtime?: Shared }>();
store.__vaRealtime ??= { topics: new Map(), remote: new Set(), listens: 0, inFlight: false, queued: new Set(), notifications: 0 };
const shared = store.__vaRealtime;

/** This process's id in its notifications, so it does not wake itself twice. */
const SELF = randomUUID();

export function subscribe(topic: string, listener: Listener): () => void {
  let set = shared.topics.get(topic);
  if (!set) {
    set = new Set();
    shared.topics.set(topic, set);
  }
  set.add(listener);
  return () => {
    const s = shared.topics.get(topic);
    if (!s) return;
    s.delete(listener);
    if (!s.size) shared.topics.delete(topic);
  };
}

/** Wakes of other instances, topics aside (the delivery engine's claim loop). */
export function onRemoteWake(listener: () => void): () => void {
  shared.remote.add(listener);
  return () => shared.remote.delete(listener);
}

/** Call after the commit that changed what the topics follow; `detail` reaches local listeners only. */
export function publish(topics: Iterable<string>, detail?: unknown): void {
  let any = false;
  for (const topic of topics) {
    any = true;
    wakeLocal(topic, detail);
    if (shared.pg) shared.queued.add(topic);
  }
  if (any && shared.pg) flushSoon();
}

/**
 * Sends at the end of this turn of the event loop: a commit publishes its events' and its chats'
 * topics in separate calls, and each call sent at once made the second wait for the first's
 * round trip, then go in a NOTIFY of its own.
 */
function flushSoon(): void {
  if (shared.flushQueued) return;
  shared.flushQueued = true;
  queueMicrotask(() => {
    shared.flushQueued = false;
    flush();
  });
}

function wakeLocal(topic: string, detail?: unknown): void {
  if (topic === ALL) {
    for (const [name, set] of [...shared.topics]) if (name !== ALL) for (const listener of [...set]) safe(listener, name);
  } else for (const listener of [...(shared.topics.get(topic) ?? [])]) safe(listener, topic, detail);
  for (const listener of [...(shared.topics.get(ALL) ?? [])]) safe(listener, topic, detail);
}

function safe(listener: Listener, topic: string, detail?: unknown): void {
  try {
    listener(topic, detail);
  } catch (err) {
    logger.error('a realtime listener failed', { err, topic });
  }
}

/** How long a NOTIFY that failed waits before it is sent again. */
const NOTIFY_RETRY_MS = 1_000;

/** One send in flight; what is published meanwhile rides in the next. */
function flush(): void {
  const pg = shared.pg;
  if (!pg || shared.inFlight || !shared.queued.size) return;
  shared.inFlight = true;
  const sending = shared.queued;
  const payloads = payloadsOf(sending);
  shared.queued = new Set();
  shared.notifications += payloads.length;
  Promise.all(payloads.map((payload) => pg.notify(REALTIME_CHANNEL, payload))).then(
    () => {
      shared.inFlight = false;
      flush();
    },
    (err) => {
      // Not sent (the database is away or busy): the topics go back in the queue and are sent again
      // after a pause, with whatever is published meanwhile, so another instance's reader is not
      // left waiting for a wake that was dropped.
      logger.debug('realtime notification not sent; sending it again shortly', { err });
      for (const topic of sending) shared.queued.add(topic);
      setTimeout(() => {
        shared.inFlight = false;
        flush();
      }, NOTIFY_RETRY_MS).unref();
    },
  );
}

/**
 * `<sender> <topic> <topic>…`, as many as the topics need under PAYLOAD_LIMIT each; `<sender> *`
 * alone when `*` itself was published or a topic cannot be written (it holds a space, or is longer
 * than a payload).
 */
export function payloadsOf(topics: Iterable<string>, sender: string = SELF): string[] {
  const payloads: string[] = [];
  let payload = sender;
  for (const topic of topics) {
    if (topic === ALL || /\s/.test(topic) || sender.length + topic.length + 1 > PAYLOAD_LIMIT) return [`${sender} ${ALL}`];
    if (payload.length + topic.length + 1 > PAYLOAD_LIMIT) {
      payloads.push(payload);
      payload = sender;
    }
    payload += ` ${topic}`;
  }
  payloads.push(payload);
  return payloads;
}

function onNotification(payload: string): void {
  const [sender, ...topics] = payload.split(' ');
  if (sender === SELF) return;
  for (const listener of [...shared.remote]) listener();
  // A sender of an older version names no topic: treat it as a wake of everything.
  for (const topic of topics.length ? topics : [ALL]) wakeLocal(topic);
}

/**
 * On PostgreSQL, sends this process's topics to the other instances and listens for theirs. Does
 * nothing on PGlite. Safe to call more than once.
 */
export async function connectRealtime(db: Db): Promise<void> {
  const client = (db as unknown as { $client?: Partial<PostgresClient> }).$client;
  if (typeof client?.notify !== 'function' || typeof client.listen !== 'function') return;
  shared.pg = client as PostgresClient;
  if (shared.unlisten) return;
  shared.listens = 0;
  // postgres.js keeps the LISTEN connection and listens again after it reconnects; each (re)listen
  // calls onlisten. After the first, notifications may have been lost: wake everything.
  const sub = await shared.pg.listen(REALTIME_CHANNEL, onNotification, () => {
    if (shared.listens++ > 0) {
      logger.info('realtime listening again after a lost connection: waking every reader');
      for (const listener of [...shared.remote]) listener();
      wakeLocal(ALL);
    }
  });
  shared.unlisten = sub.unlisten;
}

/** Stops sending and listening (shutdown). Local wakes go on. */
export async function disconnectRealtime(): Promise<void> {
  const unlisten = shared.unlisten;
  shared.unlisten = undefined;
  shared.pg = undefined;
  shared.queued.clear();
  await unlisten?.().catch(() => {});
}
