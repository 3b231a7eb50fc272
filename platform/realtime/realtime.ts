import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { logger } from '@/platform/util/logger';
import { processStore } from '@/platform/util/process-store';

/**
 * Topic wake-ups for the whole product, within this process and, on PostgreSQL, across instances
 * (LISTEN/NOTIFY on the outbox channel the delivery engine already listens on). A wake carries no
 * data that matters: a listener re-reads what it follows from the database (a stream from its
 * cursor), so a lost, late or repeated wake costs at most a read, never an item. A publisher may
 * add a `detail` that this process's listeners get (what changed, so a listener that can use it
 * skips the read), and `share` a text form of it for one topic, which the other instances'
 * listeners of that topic get as a `SharedDetail` (a listener decodes it, and reads when it cannot
 * use it); without `share`, other instances get the bare wake.
 *
 * - `publish(topics, detail?, share?)` after the commit that changed them: local listeners run at once; the topics
 *   go to the other instances in the next NOTIFY, sent once the current synchronous work is done
 *   (a microtask), so the publishes of one commit share it. One send is in flight at a time: topics
 *   published meanwhile are batched into the next one, split over as many notifications as
 *   NOTIFY's 8000-byte payload needs and sent together, so a burst costs a few notifications. A
 *   batch is never widened to `*` (every topic): on a busy instance the batches grow, and each
 *   `*` made every stream of the other instances read at once, which made them busier still
 *   (bench:open-widgets on two instances fell to 88 of 500 messages/s, 12 ms of CPU each).
 *   A shared detail rides after its topic (` =<base64url>`, one per publish, in order); a topic
 *   also published bare in the batch goes bare, and details that do not fit a payload are dropped
 *   (the topic goes bare). A sender of the release before ignores them and reads the `=` tokens as
 *   topics nobody follows, so a rolling upgrade loses no wake.
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

/** A detail another instance shared with its wake: the text its publisher gave as `share`. */
export class SharedDetail {
  constructor(readonly text: string) {}
}
type PostgresClient = {
  notify: (channel: string, payload: string) => Promise<unknown>;
  listen: (channel: string, fn: (payload: string) => void, onlisten?: () => void) => Promise<{ unlisten: () => Promise<void> }>;
};

type Shared = {
  /** Each topic's listeners: the listener itself while it is the only one (most topics: one chat's stream), a Set from the second on. */
  topics: Map<string, Listener | Set<Listener>>;
  /** Hears every wake from another instance, whatever its topics (the delivery engine). */
  remote: Set<() => void>;
  pg?: PostgresClient;
  unlisten?: () => Promise<void>;
  listens: number;
  inFlight: boolean;
  /** A flush is due at the end of the current turn of the event loop. */
  flushQueued?: boolean;
  /** Topics to send, each with the shared details published for it in order (null: a bare wake). */
  queued: Map<string, string[] | null>;
  notifications: number;
};
const store = processStore<{ __vaRealtime?: Shared }>();
store.__vaRealtime ??= { topics: new Map(), remote: new Set(), listens: 0, inFlight: false, queued: new Map(), notifications: 0 };
const shared = store.__vaRealtime;

/** This process's id in its notifications, so it does not wake itself twice. */
const SELF = randomUUID();

export function subscribe(topic: string, listener: Listener): () => void {
  const held = shared.topics.get(topic);
  if (held === undefined) shared.topics.set(topic, listener);
  else if (typeof held === 'function') shared.topics.set(topic, new Set([held, listener]));
  else held.add(listener);
  return () => {
    const now = shared.topics.get(topic);
    if (now === listener) shared.topics.delete(topic);
    else if (now instanceof Set) {
      now.delete(listener);
      if (!now.size) shared.topics.delete(topic);
    }
  };
}

/** A copy of the topic's listeners (one may unsubscribe another while they run). */
function listenersOf(topic: string): Listener[] {
  const held = shared.topics.get(topic);
  return held === undefined ? [] : typeof held === 'function' ? [held] : [...held];
}

/** Wakes of other instances, topics aside (the delivery engine's claim loop). */
export function onRemoteWake(listener: () => void): () => void {
  shared.remote.add(listener);
  return () => shared.remote.delete(listener);
}

/**
 * Call after the commit that changed what the topics follow. `detail` reaches local listeners;
 * `share` (a text form of it, for one of the topics) reaches that topic's listeners on the other
 * instances, which must treat it as a hint (it can arrive late, early or twice).
 */
export function publish(topics: Iterable<string>, detail?: unknown, share?: { topic: string; text: string }): void {
  let any = false;
  for (const topic of topics) {
    any = true;
    wakeLocal(topic, detail);
    if (shared.pg) queue(topic, share?.topic === topic ? share.text : undefined);
  }
  if (any && shared.pg) flushSoon();
}

/** Queues a topic for the next NOTIFY, with a shared detail or bare (a bare wake makes the details moot). */
function queue(topic: string, text: string | undefined): void {
  const details = shared.queued.get(topic);
  if (text === undefined) shared.queued.set(topic, null);
  else if (details === undefined) shared.queued.set(topic, [text]);
  else if (details !== null) details.push(text);
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
    for (const name of [...shared.topics.keys()]) if (name !== ALL) for (const listener of listenersOf(name)) safe(listener, name);
  } else for (const listener of listenersOf(topic)) safe(listener, topic, detail);
  for (const listener of listenersOf(ALL)) safe(listener, topic, detail);
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
  shared.queued = new Map();
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
      for (const topic of sending.keys()) shared.queued.set(topic, null);
      setTimeout(() => {
        shared.inFlight = false;
        flush();
      }, NOTIFY_RETRY_MS).unref();
    },
  );
}

/**
 * `<sender> <topic> [=<detail>…] <topic>…`, as many as the topics need under PAYLOAD_LIMIT each
 * (a topic's details in the same payload as the topic, or none of them); `<sender> *` alone when
 * `*` itself was published or a topic cannot be written (it holds a space, starts with `=`, or is
 * longer than a payload).
 */
export function payloadsOf(batch: ReadonlyMap<string, readonly string[] | null>, sender: string = SELF): string[] {
  const room = PAYLOAD_LIMIT - sender.length;
  const payloads: string[] = [];
  let payload = sender;
  for (const [topic, details] of batch) {
    if (topic === ALL || /\s/.test(topic) || topic.startsWith('=') || topic.length + 1 > room) return [`${sender} ${ALL}`];
    let part = ` ${topic}`;
    if (details?.length) {
      const withDetails = part + details.map((d) => ` =${Buffer.from(d).toString('base64url')}`).join('');
      if (withDetails.length <= room) part = withDetails;
    }
    if (payload.length + part.length > PAYLOAD_LIMIT) {
      payloads.push(payload);
      payload = sender;
    }
    payload += part;
  }
  payloads.push(payload);
  return payloads;
}

/** What a payload wakes: each topic, once bare or once per shared detail (in the order published). */
export function wakesOf(tokens: readonly string[]): [string, SharedDetail?][] {
  const wakes: [string, SharedDetail?][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const topic = tokens[i];
    if (topic.startsWith('=')) continue;
    let n = 0;
    while (tokens[i + 1 + n]?.startsWith('=')) n++;
    if (!n) wakes.push([topic]);
    for (let k = 1; k <= n; k++) wakes.push([topic, new SharedDetail(Buffer.from(tokens[i + k].slice(1), 'base64url').toString())]);
    i += n;
  }
  return wakes;
}

function onNotification(payload: string): void {
  const [sender, ...tokens] = payload.split(' ');
  if (sender === SELF) return;
  for (const listener of [...shared.remote]) listener();
  // A sender of an older version names no topic: treat it as a wake of everything.
  if (!tokens.length) wakeLocal(ALL);
  for (const [topic, detail] of wakesOf(tokens)) wakeLocal(topic, detail);
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
