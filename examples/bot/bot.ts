import http from 'node:http';
import {
  BotApiError,
  createBotClient,
  type EventMessageEntry,
  responseOf,
  sendReplyStream,
  streamReply,
  verifyWebhook,
  type WebhookEvent,
} from '@/client';
import { answerWithModel } from './mock-model';

export type BotOptions = {
  /** The service's origin, e.g. http://localhost:3000. */
  baseUrl: string;
  apiKey: string;
  signingSecret: string;
  /** The VA's login ID (`va-…`), to list the chats it holds; default: asked of `GET /me`. */
  loginId?: string;
  /**
   * `webhook` (default): a webhook server receives the events. `pull`: the bot reads them from
   * `GET /api/v1/events` (long-poll) and needs no address of its own; its VA's delivery mode should
   * be `pull`, so the service does not also POST them.
   */
  delivery?: 'webhook' | 'pull';
  /** Where the webhook server listens; port 0 picks a free one. Not used in pull mode. */
  port?: number;
  host?: string;
  /** The team a customer who asks for a person is handed to. */
  handoverTeam?: string;
  /**
   * Demo of a language-model bot: answers are streamed a few words at a time (typing with a status
   * line first, then a streamed reply), as a model producing tokens would.
   */
  streamReplies?: boolean;
  /**
   * Demo of a bot on the AI SDK: each answer comes from `streamText(...)` on the SDK's mock model
   * (no API key), which calls a tool and writes its answer; its UI message stream is sent to the
   * service as it is, in one call (`sendReplyStream`). A model takes longer than the 5 s a delivery
   * may, so its webhook answers 200 at once and replies after.
   */
  aiSdk?: boolean;
  /** With `streamReplies`: a word at a time, slowly, so a turn superseding the reply can be seen in the demo. */
  slowStream?: boolean;
  /**
   * For trying replays (docs/guide/replay.md): `no-refund-handover` plants a regression, the bot
   * no longer hands over chats that mention a refund (it answers them as any other message).
   */
  regression?: 'no-refund-handover';
  log?: (line: string, fields?: Record<string, unknown>) => void;
};

/** A text a few words at a time, with a pause between, as a language model would produce it. */
async function* wordsSlowly(text: string, slow = false): AsyncGenerator<string> {
  const words = text.split(/(?<= )/);
  const step = slow ? 1 : 3;
  for (let i = 0; i < words.length; i += step) {
    await new Promise((resolve) => setTimeout(resolve, slow ? 700 : 150));
    yield words.slice(i, i + step).join('');
  }
}

/** Words that mean "let me talk to a person". */
const WANTS_HUMAN = /\b(agent|human|person|someone real)\b/i;
/** Refunds are for people to decide: a chat that mentions one is handed over. */
const MENTIONS_REFUND = /\brefund/i;
const MAX_BODY_BYTES = 1024 * 1024;
/** The quick replies offered on livechat, and the payload of "that is all". */
const DONE = 'done';
const CHOICES = [
  { title: 'Talk to a person', payload: 'agent' },
  { title: 'That is all, thanks', payload: DONE },
];
/** webhook-ids already handled; a redelivery of one is answered 200 and not acted on twice. */
const SEEN_LIMIT = 10_000;

/**
 * The example bot: a node:http webhook receiver that greets each chat it is given, answers what
 * the customer writes, and hands the chat to a team of people when the customer asks for one;
 * given such a chat back by a person, it closes it once the customer says that is all.
 *
 * - Verifies every delivery's signature over the raw body before reading it (401 otherwise).
 * - Acts before it answers 200, so a failure (500) makes the service deliver the event again;
 *   replies carry an `Idempotency-Key` made from the event's `webhook-id`, so that second try never
 *   sends the customer a second copy, and handled `webhook-id`s are answered 200 at once.
 *   With `aiSdk` (a model's answer outlasts the 5 s a delivery may) it answers 200 first, then
 *   acts, and remembers the messages it answered, since a reply sent as one stream has no key.
 * - Keeps the chats it holds: it stops writing into a chat on `chat.unassigned` or `chat.closed`.
 * - On start, lists the chats assigned to it and (with a webhook) answers any whose last message is
 *   the customer's, so nothing asked while it was down goes unanswered.
 * - Its client fetches and refreshes the access token by itself.
 * - In pull mode it long-polls `GET /api/v1/events` instead of listening: each item carries the
 *   body and signature a webhook would, and is verified and handled the same way. Each read names
 *   the last item handled as `after`, which acknowledges it, so after a restart the service
 *   carries on from there (a read without `after` starts after the last acknowledged event).
 */
export async function startBot(options: BotOptions) {
  const log = options.log ?? ((line, fields) => console.log(JSON.stringify({ msg: line, ...fields })));
  const api = createBotClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  const loginId = options.loginId ?? responseOf(await api.me.getMe()).login_id;
  const handoverTeamName = options.handoverTeam ?? 'Support';
  const held = new Set<string>();
  const seen = new Set<string>();
  /** Chats this bot handed to people, and those of them a person has handed back since. */
  const handedOver = new Set<string>();
  const handedBack = new Set<string>();
  /**
   * AI SDK mode: the replies sent or being sent, by their Idempotency-Key. A reply sent as one
   * event stream is not idempotent on the service, so the bot itself makes sure that a customer
   * message reached by the start-up catch-up and again by its event is answered once.
   */
  const modelReplies = new Set<string>();

  async function handoverTeamId(): Promise<number> {
    const teams = responseOf(await api.teams.listTeams());
    const team = teams.find((t) => t.team_name === handoverTeamName);
    if (!team) throw new Error(`no team named "${handoverTeamName}" to hand over to`);
    return team.team_id;
  }

  async function reply(
    chatId: string,
    text: string,
    idempotencyKey: string,
    choices?: { title: string; payload: string }[],
    question = '',
    turnId?: string,
  ) {
    if (options.aiSdk && !choices) {
      if (modelReplies.has(idempotencyKey)) {
        log('already answered (AI SDK stream)', { chat_id: chatId, key: idempotencyKey });
        return;
      }
      modelReplies.add(idempotencyKey);
      const send = () =>
        sendReplyStream(api, chatId, answerWithModel(question, text).toUIMessageStreamResponse(), {
          statusText: 'Thinking…',
          statusLabels: { lookupOrder: 'Looking up your order…' },
        });
      try {
        const sent = await send().catch(async (err) => {
          // Lost on the way (no answer came back): asked once more, after a pause. A refusal stands.
          if (err instanceof BotApiError) throw err;
          log('reply lost on the way; sending it again', { chat_id: chatId, ...errorFields(err) });
          await new Promise((resolve) => setTimeout(resolve, 500));
          return send();
        });
        log('replied (AI SDK stream)', { chat_id: chatId, transid: sent.transid, chunks: sent.stream_seq });
      } catch (err) {
        modelReplies.delete(idempotencyKey);
        throw err;
      }
      return;
    }
    // Streamed answers (demo mode) are plain text; quick replies are sent whole.
    if (options.streamReplies && !choices) {
      try {
        const sent = await streamReply(api, chatId, wordsSlowly(text, options.slowStream), {
          idempotencyKey,
          statusText: 'Thinking…',
          inReplyToTurn: turnId,
        });
        log('replied (streamed)', { chat_id: chatId, transid: sent.transid, chunks: sent.stream_seq });
      } catch (err) {
        // The customer wrote again (on_new_turn: supersede): the next event carries the newer turn.
        if (err instanceof BotApiError && (err.statusCode === 2100 || err.statusCode === 2101)) {
          log('reply superseded by a newer turn', { chat_id: chatId, turn_id: turnId });
          return;
        }
        throw err;
      }
      return;
    }
    const body = choices
      ? {
          type: 'outbound' as const,
          text,
          livechat_sub_type: 'quick_replies' as const,
          quick_replies: { request_identifier: idempotencyKey, options: choices },
        }
      : { type: 'outbound' as const, text };
    const sent = responseOf(
      await api.messages.postMessage({
        params: { chat_id: chatId },
        headers: { 'idempotency-key': idempotencyKey },
        body,
      }),
    );
    log('replied', { chat_id: chatId, transid: sent.transid });
  }

  /**
   * Answers one customer message. The reply's Idempotency-Key is the message's own `transid`, the
   * same whether the message came in an event, in a redelivery or from the catch-up list, so a
   * customer message is never answered twice.
   */
  /**
   * The bot's one tool with an effect outside the chat: a refund case in the shop's system (here a
   * log line). A replay's events carry `replay` and nobody acts on their chats, so it is stubbed.
   */
  function openRefundCase(chatId: string, replay: { run_id: string } | undefined) {
    if (replay) log('refund case stubbed: a replay', { chat_id: chatId, replay_run_id: replay.run_id });
    else log('refund case opened', { chat_id: chatId });
  }

  async function answer(
    chatId: string,
    channel: string,
    message: {
      transid: string;
      text?: string;
      turn_id?: string;
      quick_reply_response?: { options: { title: string; payload?: string }[] };
    },
    replay?: { run_id: string },
  ) {
    // A quick reply click says what was chosen in its payload (the service fills it from the offer).
    const said = message.text ?? message.quick_reply_response?.options[0]?.payload ?? '';
    if (said === DONE) {
      await reply(chatId, 'Glad I could help. Write again at any time.', `done-${message.transid}`);
      // A chat a person handed back is finished here: the bot closes it (with the chat's current team).
      if (handedBack.has(chatId)) {
        const { team_id } = responseOf(await api.chats.getChat({ params: { chat_id: chatId } }));
        responseOf(
          await api.chats.updateChat({
            params: { chat_id: chatId },
            headers: { team_id },
            body: { status: 'closed', outcome: 'resolved' },
          }),
        );
        handedBack.delete(chatId);
        held.delete(chatId);
        log('closed', { chat_id: chatId });
      }
      return;
    }
    const refund = MENTIONS_REFUND.test(said) && options.regression !== 'no-refund-handover';
    if (WANTS_HUMAN.test(said) || refund) {
      await reply(
        chatId,
        refund
          ? 'A person from our team decides on refunds: connecting you now.'
          : 'Connecting you with a person from our team. One moment, please.',
        `handover-${message.transid}`,
      );
      if (refund) openRefundCase(chatId, replay);
      const teamid = await handoverTeamId();
      const res = await api.chats.transferChat({ params: { chat_id: chatId }, body: { transfer: { teamid } } });
      // Refused: maybe an earlier try of this same event already handed the chat over. If the chat is
      // no longer ours, that is done; otherwise the error stands and the event is retried.
      if (res.status !== 202 && responseOf(await api.chats.getChat({ params: { chat_id: chatId } })).assignee === loginId) responseOf(res);
      held.delete(chatId);
      handedOver.add(chatId);
      log('handed over', { chat_id: chatId, team_id: teamid });
      return;
    }
    if (options.aiSdk) {
      await reply(
        chatId,
        'I looked up your order 1042: it left our warehouse this morning and should arrive within 3 days. Type "agent" at any time to talk to a person.',
        `reply-${message.transid}`,
        undefined,
        said,
      );
      return;
    }
    // On livechat (the chat widget) the choices come as quick reply buttons too (not in the slow
    // streaming demo, whose point is a long reply the customer can interrupt).
    await reply(
      chatId,
      options.slowStream
        ? `You said: "${said}". Let me think about that for a moment, it may take a while to put the whole answer together. Type "agent" at any time to talk to a person.`
        : 'Thanks, I have noted that. Type "agent" at any time to talk to a person.',
      `reply-${message.transid}`,
      channel === 'livechat' && !options.slowStream ? CHOICES : undefined,
      '',
      message.turn_id,
    );
  }

  const customerMessage = (entries: EventMessageEntry[]) => entries.map((e) => e.message).findLast((m) => m.type === 'inbound');

  async function handle(id: string, event: WebhookEvent) {
    const chatId = event.chat_id;
    if (event.test) {
      log('test event received', { webhook_id: id, chat_id: chatId });
      return;
    }
    switch (event.event_type) {
      case 'chat.assigned': {
        held.add(chatId);
        // Given back a chat it handed to people: a person's hand-back.
        if (handedOver.delete(chatId)) handedBack.add(chatId);
        const waiting = customerMessage(event.payload.messages);
        if (waiting) await answer(chatId, event.channel, waiting, event.replay);
        else await reply(chatId, 'Hello! I am the demo bot. How can I help?', `greet-${id}`);
        return;
      }
      case 'message.received': {
        const message = customerMessage(event.payload.messages);
        if (!held.has(chatId)) log('message for a chat not held, ignored', { webhook_id: id, chat_id: chatId });
        else if (message) await answer(chatId, event.channel, message, event.replay);
        return;
      }
      case 'chat.unassigned':
      case 'chat.closed':
        held.delete(chatId);
        log('chat left', { webhook_id: id, chat_id: chatId, event_type: event.event_type });
        return;
    }
  }

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/webhook') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      let verified: ReturnType<typeof verifyWebhook>;
      try {
        verified = verifyWebhook(options.signingSecret, Buffer.concat(chunks), req.headers);
      } catch {
        log('refused a delivery with a bad signature');
        res.writeHead(401).end();
        return;
      }
      const { id, event } = verified;
      if (seen.has(id)) {
        res.writeHead(200).end();
        return;
      }
      if (options.aiSdk) {
        // A model's answer takes longer than the 5 s a delivery may: 200 at once, then act, one
        // event of a chat after the other. A failure is logged; the customer's next message (or
        // the catch-up at the next start) is answered as usual.
        remember(id);
        res.writeHead(200).end();
        inOrder(event.chat_id, () => handle(id, event), id);
        return;
      }
      try {
        await handle(id, event);
        remember(id);
        res.writeHead(200).end();
      } catch (err) {
        log('could not handle the event; the service will send it again', { webhook_id: id, chat_id: event.chat_id, ...errorFields(err) });
        res.writeHead(500).end();
      }
    });
  });

  /** Chains a chat's work after the work already queued for it (AI SDK mode's webhook). */
  const chains = new Map<string, Promise<void>>();
  function inOrder(chatId: string, work: () => Promise<void>, webhookId: string) {
    const next = (chains.get(chatId) ?? Promise.resolve())
      .then(work)
      .catch((err) => log('could not handle the event', { webhook_id: webhookId, chat_id: chatId, ...errorFields(err) }))
      .finally(() => {
        if (chains.get(chatId) === next) chains.delete(chatId);
      });
    chains.set(chatId, next);
  }

  function remember(id: string) {
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
  }

  /**
   * Catch-up: the chats this VA holds, answering those where the customer spoke last. At the start
   * in pull mode it only learns which chats it holds: what the customer wrote meanwhile is in the
   * events after the acknowledged position, read next (unless the cursor expired: then it answers).
   */
  async function reconcile(answerWaiting = options.delivery !== 'pull') {
    let cursor: string | undefined;
    do {
      const page = responseOf(await api.chats.listChats({ query: { assignee: loginId, status: 'picked', page_size: 100, cursor } }));
      for (const chat of page.chats) {
        held.add(chat.chat_id);
        const last = chat.messages.at(-1);
        if (last?.type === 'inbound' && answerWaiting) await answer(chat.chat_id, chat.channel, last);
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    log('reconciled', { chats_held: held.size });
  }

  await reconcile();
  if (options.delivery === 'pull') return startPulling();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  const url = `http://${options.host ?? '127.0.0.1'}:${address.port}/webhook`;
  log('listening', { url });
  return {
    url: url as string | null,
    held,
    done: new Promise<void>((resolve) => server.on('close', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  /**
   * Pull mode: reads pages of events, long-polling, until closed. Each item is verified as a
   * delivery would be and handled in order; the next read sends the last handled item's cursor as
   * `after`, acknowledging it. A failed item is tried again (after a pause) before any later one.
   */
  function startPulling() {
    const stop = new AbortController();
    const loop = (async () => {
      let after: string | undefined;
      let pause = 1000;
      log('reading events', { url: `${options.baseUrl}/api/v1/events` });
      while (!stop.signal.aborted) {
        let page: Awaited<ReturnType<typeof readEvents>>;
        try {
          page = await readEvents(after, stop.signal);
        } catch (err) {
          if (stop.signal.aborted) break;
          if (err instanceof BotApiError && err.statusCode === 2063) {
            // Older than what the service keeps: read on from the oldest event it still has, and
            // catch up on the chats held, since some events are gone.
            log('cursor expired; reading on from the oldest event kept', errorFields(err));
            after = (err.response as { oldest_cursor: string }).oldest_cursor;
            await reconcile(true);
            continue;
          }
          if (err instanceof BotApiError && err.statusCode === 2064) {
            // A cursor the service never gave: read on from the acknowledged position (events read
            // since then come again; `seen` drops the repeats).
            log('cursor not issued; reading on from the acknowledged position', errorFields(err));
            after = undefined;
            continue;
          }
          log('could not read events; trying again', errorFields(err));
          await sleep(pause, stop.signal);
          pause = Math.min(pause * 2, 60_000);
          continue;
        }
        pause = 1000;
        for (const item of page.events) {
          // The body and headers a webhook delivery of this event carries: the same check.
          const { id, event } = verifyWebhook(options.signingSecret, item.body, {
            'webhook-id': item.webhook_id,
            'webhook-timestamp': item.webhook_timestamp,
            'webhook-signature': item.webhook_signature,
          });
          while (!seen.has(id) && !stop.signal.aborted) {
            try {
              await handle(id, event);
              remember(id);
            } catch (err) {
              log('could not handle the event; trying again', { webhook_id: id, chat_id: event.chat_id, ...errorFields(err) });
              await sleep(pause, stop.signal);
              pause = Math.min(pause * 2, 60_000);
            }
          }
          if (stop.signal.aborted) break;
          after = item.cursor;
        }
        if (!stop.signal.aborted && page.events.length === 0) after = page.next_cursor;
      }
    })();
    const done = loop.catch((err) => {
      log('stopped reading events', errorFields(err));
      throw err;
    });
    // Handled here so that a bot nobody awaits does not end the process; `done` still rejects.
    done.catch(() => {});
    return {
      url: null as string | null,
      held,
      /** Settles when the bot stops reading: fulfilled once closed, rejected on what it cannot get past (a bad signature). */
      done,
      close: async () => {
        stop.abort();
        await done.catch(() => {});
      },
    };
  }

  /** One page of `GET /api/v1/events` (`wait_seconds` 25: answered as soon as an event is there). */
  async function readEvents(after: string | undefined, signal: AbortSignal) {
    return responseOf(await api.events.listEvents({ query: { after, limit: 100, wait_seconds: 25 }, fetchOptions: { signal } }));
  }
}

/** What went wrong, for the log: the envelope's code, or the error with its cause (fetch's "fetch failed" says why only there). */
const errorFields = (err: unknown) =>
  err instanceof BotApiError
    ? { status_code: err.statusCode, trxid: err.trxid }
    : {
        error: String(err),
        ...(err instanceof Error && err.cause ? { cause: String((err.cause as { code?: string }).code ?? err.cause) } : {}),
      };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
