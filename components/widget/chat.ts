// The chat widget's page script (/chat/<app id>, full page or framed by /widget.js), compiled by
// scripts/build-widget.ts to public/widget/chat.js. Talks to the widget API with the customer
// credential kept in localStorage, and follows the chat live through its Server-Sent Events
// stream. Text is always shown as text; links are made only of http(s) addresses.
import type { WidgetChat, WidgetChunk, WidgetMessage, WidgetTyping } from '@/contracts/widget/schemas';
import { type Answer, ApiFailure, type JsonRoute, request } from './api';
import { choicesElement, draftElement, messageElement } from './render';
import { readStream, type StreamEvent } from './stream';

type Saved = { token?: string; livechatId?: string };
type Draft = { el: HTMLElement; body: HTMLElement; seq: number; text: string };

const UNREACHABLE = 'The chat cannot be reached at the moment. Please try again in a moment.';

function element<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function main(appIdText: string): void {
  const appId = Number(appIdText);
  const STORE = `va-chat:${appIdText}`;
  const embedded = new URLSearchParams(window.location.search).get('embed') === '1' && window.parent !== window;

  const log = element<HTMLDivElement>('log');
  const status = element<HTMLParagraphElement>('status');
  const composer = element<HTMLFormElement>('composer');
  const text = element<HTMLTextAreaElement>('text');
  const send = element<HTMLButtonElement>('send');
  const nameRow = element<HTMLParagraphElement>('name-row');
  const nameInput = element<HTMLInputElement>('name');
  const error = element<HTMLParagraphElement>('error');
  const closedBox = element<HTMLDivElement>('closed');
  const restart = element<HTMLButtonElement>('restart');
  const connection = element<HTMLParagraphElement>('connection');
  const responder = element<HTMLParagraphElement>('responder');
  const personButton = element<HTMLButtonElement>('person');

  let saved: Saved = load();
  let chat: WidgetChat | null = null;
  /** The resume cursor: the last message id received in order (from a page or the live stream). */
  let lastId = 0;
  /** Ids shown (the answer to the customer's own POST may come before the live stream sends it). */
  let shown = new Set<number>();
  /** Streamed replies growing, by message id. */
  let drafts = new Map<number, Draft>();
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let stream: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Failed tries in a row since the service last answered (the next wait doubles, up to 15 s). */
  let failures = 0;
  /** What to try again when the service answers again (the opening, or the stream). */
  let retry: (() => void) | null = null;
  /** Set while the page reads the chat until the service answers again (probeUntilBack). */
  let probeTimer: ReturnType<typeof setTimeout> | undefined;
  let busy = false;

  function load(): Saved {
    try {
      return JSON.parse(window.localStorage.getItem(STORE) || 'null') || {};
    } catch {
      return {};
    }
  }
  function save(): void {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(saved));
    } catch {
      // storage refused (private mode): the chat works until the page is closed
    }
  }

  async function call<K extends JsonRoute>(name: K, args: Parameters<typeof request<K>>[1], retried = false): Promise<Answer<K>> {
    const result = await request(name, args, saved.token);
    if (result.ok) return result.value;
    if (result.failure.code === 2070 && !retried && name !== 'createVisitor') {
      // The credential ended (expired, or the app's key was replaced): become a new customer.
      saved = {};
      save();
      await ensureVisitor();
      return call(name, args, true);
    }
    throw result.failure;
  }

  /**
   * Whether a failure is the service's definite answer (a 4xx in its envelope other than 408 and
   * 429). A network error, a 5xx (2050: the database cannot be reached), a 408 or a 429 is not:
   * the customer keeps their credential and the page tries again.
   */
  function definite(err: unknown): err is ApiFailure {
    return err instanceof ApiFailure && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
  }

  /** Says the page is reconnecting and runs `again` after a wait that grows with each failure. */
  function reconnectLater(again: () => void): void {
    connection.hidden = false;
    clearTimeout(retryTimer);
    retry = again;
    const wait = Math.min(15_000, 1_000 * 2 ** Math.min(failures, 4)) * (0.8 + Math.random() * 0.4);
    failures += 1;
    retryTimer = setTimeout(() => {
      retry = null;
      again();
    }, wait);
  }

  function connected(): void {
    failures = 0;
    if (probeTimer === undefined) connection.hidden = true;
  }

  /**
   * A call failed for a reason that passes (503 2050 while the database cannot be reached, or the
   * network): the page says it is reconnecting until a read of the chat answers again. The live
   * stream may stay open meanwhile (the service is up, its database is not), so it alone would not
   * tell. The reads wait 1 s, doubling to 15 s.
   */
  function probeUntilBack(): void {
    if (probeTimer !== undefined || !chat) return;
    const chatId = chat.chat_id;
    connection.hidden = false;
    let tries = 0;
    const back = () => {
      probeTimer = undefined;
      if (retry === null) connection.hidden = true;
      if (error.textContent === UNREACHABLE) error.textContent = '';
    };
    const probe = () => {
      probeTimer = setTimeout(
        () => {
          call('getChat', { params: { chat_id: chatId } }).then(back, (err: unknown) => {
            if (definite(err)) back();
            else {
              tries += 1;
              probe();
            }
          });
        },
        Math.min(15_000, 1_000 * 2 ** Math.min(tries, 4)),
      );
    };
    probe();
  }

  async function ensureVisitor(): Promise<void> {
    if (saved.token) return;
    const visitor = await call('createVisitor', { params: { app_id: appId }, body: undefined });
    saved = { token: visitor.token, livechatId: visitor.livechat_id };
    save();
  }

  // ---- rendering -------------------------------------------------------------------------

  function addNotice(message: string): void {
    const p = document.createElement('p');
    p.className = 'notice';
    p.textContent = message;
    log.appendChild(p);
    scrollDown();
  }

  function scrollDown(): void {
    log.scrollTop = log.scrollHeight;
  }

  function title(): string {
    return element('chat-title').textContent ?? '';
  }

  /** Who is writing, as the line under the title names them (the bot or the person answering), else the business. */
  function writer(): string {
    return (chat?.status === 'open' && chat.responder?.name) || title();
  }

  function setStatus(value: string): void {
    clearTimeout(typingTimer);
    if (status.textContent !== value) status.textContent = value;
  }

  /** The VA's typing indicator: its status text, or "… is typing", gone when it runs out. */
  function showTyping(t: WidgetTyping): void {
    if (!t.on) {
      // Off ends what typing showed; a reply growing keeps its own line.
      if (status.dataset.kind === 'typing') {
        status.dataset.kind = '';
        showChatLine();
      }
      return;
    }
    if (status.dataset.kind === 'stream') {
      // A reply is being written: what the VA says it is doing now (a tool it called) shows until
      // the reply ends; without a status text the line stays as it is.
      if (t.status_text) setStatus(t.status_text);
      return;
    }
    setStatus(t.status_text || `${writer()} is typing…`);
    status.dataset.kind = 'typing';
    typingTimer = setTimeout(() => {
      if (status.dataset.kind !== 'typing') return;
      status.dataset.kind = '';
      showChatLine();
    }, t.seconds_left * 1000);
  }

  /**
   * A chunk of a streamed reply: the text grows in a draft bubble where the reply will stand; the
   * status line says once that a reply is being written.
   */
  function renderChunk(c: WidgetChunk): void {
    if (shown.has(c.message_id)) return;
    let d = drafts.get(c.message_id);
    if (!d) {
      const { el, body } = draftElement(c.message_id, title());
      log.appendChild(el);
      d = { el, body, seq: -1, text: '' };
      drafts.set(c.message_id, d);
      setStatus(`${writer()} is typing…`);
      status.dataset.kind = 'stream';
    }
    // A reconnect sends the open reply again from its start: keep what is shown.
    if (c.seq <= d.seq) return;
    d.seq = c.seq;
    d.text += c.text;
    d.body.textContent = d.text;
    scrollDown();
  }

  function renderMessage(m: WidgetMessage, fromStream = false): void {
    if (fromStream && m.id > lastId) lastId = m.id;
    if (shown.has(m.id)) return;
    shown.add(m.id);
    const draft = drafts.get(m.id);
    drafts.delete(m.id);
    const el = messageElement(m, title());
    // The finished reply takes its draft's place (an addition to the log: announced once).
    if (draft) draft.el.replaceWith(el);
    else log.appendChild(el);
    if (m.from === 'customer') {
      // Once the customer has answered, the earlier offers are spent.
      for (const b of log.querySelectorAll<HTMLButtonElement>('.choices button')) b.disabled = true;
    }
    const offer = m.quick_replies;
    if (offer) log.appendChild(choicesElement(offer.options, (choice, group) => choose(offer.request_identifier, choice, group)));
    if (m.from === 'business' && (status.dataset.kind === 'typing' || (status.dataset.kind === 'stream' && !drafts.size))) {
      status.dataset.kind = '';
      showChatLine();
    }
    scrollDown();
  }

  /**
   * What the chat itself says on the status line when nothing is being typed: its place in the
   * queue while waiting, or that the bot waits for a colleague's approval.
   */
  function chatLine(): string {
    if (!chat || chat.status === 'closed') return '';
    if (chat.handled_by === 'waiting') {
      return chat.queue_position ? `You are number ${chat.queue_position} in the queue for a person.` : 'Waiting for someone to answer.';
    }
    if (chat.approval_pending) return 'Waiting for a colleague to confirm…';
    return '';
  }
  /** Shows the chat's own line, unless typing or a growing reply holds the status line. */
  function showChatLine(): void {
    const kind = status.dataset.kind;
    if (kind === 'typing' || (kind === 'stream' && drafts.size)) return;
    setStatus(chatLine());
    status.dataset.kind = status.textContent ? 'chat' : '';
  }

  /** Who answers: a virtual agent is said to be one; a person is named by the name they chose. */
  function showResponder(next: WidgetChat): void {
    const r = next.status === 'open' ? next.responder : null;
    responder.textContent = !r ? '' : r.kind === 'bot' ? `${r.name} (automated assistant)` : `${r.name} is answering`;
    personButton.hidden = !(next.status === 'open' && next.handled_by === 'bot');
  }

  function showChat(next: WidgetChat): void {
    const before = chat;
    chat = next;
    if (before && before.chat_id === next.chat_id) {
      if (before.handled_by !== 'person' && next.handled_by === 'person' && next.status === 'open') {
        addNotice(next.responder ? `A person has joined the chat. ${next.responder.name} is answering.` : 'A person has joined the chat.');
      } else if (before.handled_by === 'bot' && next.handled_by === 'waiting' && next.status === 'open') {
        addNotice('Your chat is being passed on. Please wait.');
      }
      if (before.status === 'open' && next.status === 'closed') addNotice('This chat has ended.');
    }
    const closed = next.status === 'closed';
    closedBox.hidden = !closed;
    composer.hidden = closed;
    nameRow.hidden = true;
    if (before && before.handled_by !== next.handled_by && status.dataset.kind === 'typing') status.dataset.kind = '';
    showResponder(next);
    if (closed) {
      setStatus('');
      status.dataset.kind = '';
    } else showChatLine();
  }

  // ---- live updates ----------------------------------------------------------------------

  function follow(): void {
    stopFollowing();
    if (!chat || !saved.token) return;
    const controller = new AbortController();
    stream = controller;
    readStream({ chatId: chat.chat_id, after: lastId, token: saved.token, signal: controller.signal }, handleEvent, connected).catch(
      (err: unknown) => {
        if (controller.signal.aborted || stream !== controller) return;
        if (definite(err)) {
          stream = null;
          if (err.code === 2070) credentialEnded();
          else showError(err);
          return;
        }
        // Reconnect and resume after the last message shown: nothing lost, nothing twice.
        reconnectLater(follow);
      },
    );
  }

  function stopFollowing(): void {
    clearTimeout(retryTimer);
    retry = null;
    if (stream) stream.abort();
    stream = null;
  }

  function handleEvent(event: StreamEvent): void {
    if (event.type === 'message') renderMessage(event.data, true);
    else if (event.type === 'chunk') renderChunk(event.data);
    else if (event.type === 'chat') {
      showChat(event.data);
      if (event.data.status === 'closed') stopFollowing();
    } else if (event.type === 'typing') showTyping(event.data);
  }

  // ---- actions ---------------------------------------------------------------------------

  function showError(err: unknown): void {
    if (err instanceof ApiFailure) {
      if (err.code === 2012) error.textContent = 'You are sending messages too quickly. Please wait a moment and try again.';
      else if (err.code === 2035) error.textContent = 'This chat is not available at the moment.';
      else if (err.code === 2040) error.textContent = 'This chat has ended. Start a new chat to write again.';
      else if (!definite(err)) {
        error.textContent = UNREACHABLE;
        probeUntilBack();
      } else error.textContent = err.message;
    } else {
      error.textContent = 'The message could not be sent. Check your connection and try again.';
      probeUntilBack();
    }
  }

  /**
   * The customer's typing, for a bot that gathers a burst into one turn (docs/guide/turns.md): on at
   * the first key, refreshed every 3 s while keys come, off after 3 s without one or when the input
   * empties. A sent message says "still typing": the customer who sends a line and goes on writing is
   * mid-burst. Whether they went on is decided here, where the keys are, not by a race of two calls
   * at the server: no key within AFTER_SEND_PAUSE_MS of the send's answer (or since the send began),
   * and the widget says "stopped", which closes the turn at once. Failures are ignored: typing is a hint.
   */
  const AFTER_SEND_PAUSE_MS = 400;
  let typingOn = false;
  let typingSentAt = 0;
  let lastKeyAt = 0;
  let typingIdle: ReturnType<typeof setTimeout> | undefined;
  function reportTyping(on: boolean): void {
    if (!chat || chat.status === 'closed' || !saved.token) return;
    typingOn = on;
    typingSentAt = Date.now();
    void request('setTyping', { params: { chat_id: chat.chat_id }, body: { typing: on } }, saved.token).catch(() => {});
  }
  function onInput(): void {
    lastKeyAt = Date.now();
    clearTimeout(typingIdle);
    if (!text.value.trim()) {
      if (typingOn) reportTyping(false);
      return;
    }
    if (!typingOn || Date.now() - typingSentAt > 3_000) reportTyping(true);
    typingIdle = setTimeout(() => {
      if (typingOn) reportTyping(false);
    }, 3_000);
  }

  async function submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const raw = text.value;
    const value = raw.trim();
    error.textContent = '';
    if (!value) {
      error.textContent = 'Write a message first.';
      text.focus();
      return;
    }
    if (busy) return;
    busy = true;
    send.disabled = true;
    try {
      await ensureVisitor();
      if (!chat || chat.status === 'closed') {
        const name = nameInput.value.trim();
        const started = await call('startChat', { body: name ? { name, text: value } : { text: value } });
        resetLog();
        showChat(started);
        await catchUp();
        follow();
      } else {
        clearTimeout(typingIdle);
        const sentAt = Date.now();
        typingOn = true;
        typingSentAt = sentAt;
        renderMessage(await call('sendMessage', { params: { chat_id: chat.chat_id }, body: { text: value, typing: true } }));
        clearTimeout(typingIdle);
        // Went on typing while it was sent: the ordinary idle stop. Otherwise a short pause for the first key.
        const wentOn = lastKeyAt > sentAt;
        // (A key after the answer replaces this timer with its own, in onInput.)
        typingIdle = setTimeout(
          () => {
            if (typingOn) reportTyping(false);
          },
          wentOn ? Math.max(0, 3_000 - (Date.now() - lastKeyAt)) : AFTER_SEND_PAUSE_MS,
        );
      }
      // Keys typed while the message was on its way are the next line: keep them.
      text.value = text.value.startsWith(raw) ? text.value.slice(raw.length).trimStart() : '';
    } catch (err) {
      showError(err);
    } finally {
      busy = false;
      send.disabled = false;
      text.focus();
    }
  }

  async function choose(requestIdentifier: string, choice: string, group: HTMLElement): Promise<void> {
    if (!chat) return;
    for (const b of group.querySelectorAll('button')) b.disabled = true;
    error.textContent = '';
    try {
      const message = await call('sendMessage', {
        params: { chat_id: chat.chat_id },
        body: { quick_reply_response: { request_identifier: requestIdentifier, options: [{ title: choice }] } },
      });
      renderMessage(message);
      text.focus();
    } catch (err) {
      for (const b of group.querySelectorAll('button')) b.disabled = false;
      showError(err);
    }
  }

  /** "Talk to a person": the chat answers as it now stands (the live stream says the same). */
  async function askForPerson(): Promise<void> {
    if (!chat || chat.status === 'closed' || busy) return;
    personButton.disabled = true;
    error.textContent = '';
    try {
      const next = await call('requestPerson', { params: { chat_id: chat.chat_id }, body: {} });
      if (next.handled_by === 'bot') addNotice('You asked for a person. The assistant will pass you on.');
      showChat(next);
    } catch (err) {
      showError(err);
    } finally {
      personButton.disabled = false;
    }
  }

  async function catchUp(): Promise<void> {
    for (;;) {
      if (!chat) return;
      const page = await call('listMessages', { params: { chat_id: chat.chat_id }, query: { after: lastId } });
      for (const m of page.messages) renderMessage(m, true);
      if (!page.more) break;
    }
  }

  function resetLog(): void {
    lastId = 0;
    shown = new Set();
    drafts = new Map();
    log.textContent = '';
  }

  function newChat(): void {
    stopFollowing();
    chat = null;
    resetLog();
    closedBox.hidden = true;
    composer.hidden = false;
    nameRow.hidden = false;
    setStatus('');
    status.dataset.kind = '';
    responder.textContent = '';
    personButton.hidden = true;
    text.focus();
  }

  /** The service said the credential is no longer valid: the customer starts over as someone new. */
  function credentialEnded(): void {
    saved = {};
    save();
    newChat();
    addNotice('This conversation is no longer available. Send a message to start a new chat.');
  }

  /** Opens the app and the customer's chat; what fails for a while is tried again, the credential kept. */
  async function open(): Promise<void> {
    try {
      const app = await call('getApp', { params: { app_id: appId } });
      if (!app.enabled) {
        connected();
        composer.hidden = true;
        addNotice('This chat is not available at the moment.');
        return;
      }
      if (saved.token) {
        const current = await call('currentChat', {});
        connected();
        if (current.chat) {
          showChat(current.chat);
          await catchUp();
          if (current.chat.status === 'open') follow();
          return;
        }
      }
      connected();
      nameRow.hidden = false;
      addNotice('Send a message to start the chat.');
    } catch (err) {
      if (definite(err)) showError(err);
      else reconnectLater(() => void open());
    }
  }

  async function init(): Promise<void> {
    composer.addEventListener('submit', submit);
    text.addEventListener('input', onInput);
    text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        // Sends instead of adding a line (a message that could not be sent stays as it was written).
        e.preventDefault();
        composer.requestSubmit();
      }
    });
    restart.addEventListener('click', newChat);
    personButton.addEventListener('click', () => void askForPerson());
    if (embedded) {
      // The launcher on the host page shows and hides the panel (one button for it); Escape in here too.
      document.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') window.parent.postMessage({ type: 'va-chat:close' }, '*');
      });
      window.addEventListener('message', (e) => {
        if (e.source === window.parent && e.data && e.data.type === 'va-chat:focus') text.focus();
      });
    }
    // Back online: try now rather than at the end of the wait.
    window.addEventListener('online', () => {
      const again = retry;
      if (!again) return;
      clearTimeout(retryTimer);
      retry = null;
      again();
    });
    await open();
  }

  void init();
}

const appId = document.body.dataset.app;
if (appId) main(appId);
