// The chat widget's page (/chat/<app id>, full page or framed by /widget.js). Talks to the widget
// API (/api/widget) with the customer credential kept in localStorage, and follows the chat live
// through its Server-Sent Events stream, read with fetch so the credential stays in a header.
// Text is always shown as text; links are made only of http(s) addresses.
(() => {
  const appId = document.body.dataset.app;
  if (!appId) return;
  const API = '/api/widget';
  const STORE = `va-chat:${appId}`;
  const embedded = new URLSearchParams(window.location.search).get('embed') === '1' && window.parent !== window;

  const $ = (id) => document.getElementById(id);
  const log = $('log');
  const status = $('status');
  const composer = $('composer');
  const text = $('text');
  const send = $('send');
  const nameRow = $('name-row');
  const nameInput = $('name');
  const error = $('error');
  const closedBox = $('closed');
  const restart = $('restart');
  const closeButton = $('close');

  let saved = load();
  let chat = null;
  /** The resume cursor: the last message id received in order (from a page or the live stream). */
  let lastId = 0;
  /** Ids shown (the answer to the customer's own POST may come before the live stream sends it). */
  let shown = new Set();
  /** Streamed replies growing: message id -> { el, seq }. */
  let drafts = new Map();
  let typingTimer = null;
  let stream = null;
  let retryTimer = null;
  let busy = false;

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(STORE) || 'null') || {};
    } catch {
      return {};
    }
  }
  function save() {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(saved));
    } catch {
      // storage refused (private mode): the chat works until the page is closed
    }
  }

  class ApiFailure extends Error {
    constructor(status, body) {
      super(body?.description || `HTTP ${status}`);
      this.status = status;
      this.code = body?.status_code;
    }
  }

  async function call(method, path, body, retried) {
    const headers = { accept: 'application/json' };
    if (saved.token) headers.authorization = `Bearer ${saved.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(API + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
    const json = await res.json().catch(() => null);
    if (res.ok) return json.response;
    if (json && json.status_code === 2070 && !retried && path !== `/apps/${appId}/visitors`) {
      // The credential ended (expired, or the app's key was replaced): become a new customer.
      saved = {};
      save();
      await ensureVisitor();
      return call(method, path, body, true);
    }
    throw new ApiFailure(res.status, json);
  }

  async function ensureVisitor() {
    if (saved.token) return;
    const visitor = await call('POST', `/apps/${appId}/visitors`);
    saved = { token: visitor.token, livechatId: visitor.livechat_id };
    save();
  }

  // ---- rendering -------------------------------------------------------------------------

  /** Text with its http(s) addresses as links; everything else stays text. */
  function richText(el, value) {
    const parts = value.split(/(https?:\/\/[^\s<>"']+)/g);
    parts.forEach((part, i) => {
      if (i % 2 === 1 && /^https?:\/\//i.test(part)) {
        const a = document.createElement('a');
        a.href = part;
        a.textContent = part;
        a.target = '_blank';
        a.rel = 'noopener noreferrer';
        el.appendChild(a);
      } else if (part) {
        el.appendChild(document.createTextNode(part));
      }
    });
  }

  function isHttp(url) {
    try {
      const u = new URL(url);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }

  function addNotice(message) {
    const p = document.createElement('p');
    p.className = 'notice';
    p.textContent = message;
    log.appendChild(p);
    scrollDown();
  }

  function scrollDown() {
    log.scrollTop = log.scrollHeight;
  }

  function title() {
    return document.getElementById('chat-title').textContent;
  }

  function setStatus(value) {
    clearTimeout(typingTimer);
    if (status.textContent !== value) status.textContent = value;
  }

  /** The VA's typing indicator: its status text, or "… is typing", gone when it runs out. */
  function showTyping(t) {
    if (!t.on) {
      // Off ends what typing showed; a reply growing keeps its own line.
      if (status.dataset.kind === 'typing') {
        setStatus('');
        status.dataset.kind = '';
      }
      return;
    }
    if (status.dataset.kind === 'stream') return;
    setStatus(t.status_text || `${title()} is typing…`);
    status.dataset.kind = 'typing';
    typingTimer = setTimeout(() => {
      if (status.dataset.kind === 'typing') status.textContent = '';
      status.dataset.kind = '';
    }, t.seconds_left * 1000);
  }

  /**
   * A chunk of a streamed reply: the text grows in a draft bubble where the reply will stand. The
   * draft is hidden from screen readers (the log would re-announce every chunk); the status line
   * says once that a reply is being written, and the finished message is announced once.
   */
  function renderChunk(c) {
    if (shown.has(c.message_id)) return;
    let d = drafts.get(c.message_id);
    if (!d) {
      const el = document.createElement('div');
      el.className = 'msg business draft';
      el.dataset.id = String(c.message_id);
      el.setAttribute('aria-hidden', 'true');
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = `${title()}: `;
      const body = document.createElement('span');
      body.className = 'draft-text';
      el.append(who, body);
      log.appendChild(el);
      d = { el, body, seq: -1, text: '' };
      drafts.set(c.message_id, d);
      setStatus(`${title()} is typing…`);
      status.dataset.kind = 'stream';
    }
    // A reconnect sends the open reply again from its start: keep what is shown.
    if (c.seq <= d.seq) return;
    d.seq = c.seq;
    d.text += c.text;
    d.body.textContent = d.text;
    scrollDown();
  }

  function renderMessage(m, fromStream) {
    if (fromStream && m.id > lastId) lastId = m.id;
    if (shown.has(m.id)) return;
    shown.add(m.id);
    const draft = drafts.get(m.id);
    drafts.delete(m.id);
    const mine = m.from === 'customer';
    const el = document.createElement('div');
    el.className = `msg ${mine ? 'customer' : 'business'}`;
    el.dataset.id = String(m.id);
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = mine ? 'You: ' : `${title()}: `;
    el.appendChild(who);
    if (m.quick_reply_response) richText(el, m.quick_reply_response.options.map((o) => o.title).join(', '));
    else if (m.text) richText(el, m.text);
    if (m.attachment && isHttp(m.attachment.url)) {
      if (m.attachment.type === 'image') {
        const img = document.createElement('img');
        img.src = m.attachment.url;
        img.alt = m.text ? `Image: ${m.text}` : 'Image sent to you';
        img.referrerPolicy = 'no-referrer';
        el.appendChild(img);
      } else {
        const a = document.createElement('a');
        a.href = m.attachment.url;
        a.textContent = 'Open the attached file';
        a.target = '_blank';
        a.rel = 'noopener noreferrer';
        if (m.text) el.appendChild(document.createElement('br'));
        el.appendChild(a);
      }
    }
    // The finished reply takes its draft's place (an addition to the log: announced once).
    if (draft) draft.el.replaceWith(el);
    else log.appendChild(el);
    if (m.from === 'customer') {
      // Once the customer has answered, the earlier offers are spent.
      for (const b of log.querySelectorAll('.choices button')) b.disabled = true;
    }
    if (m.quick_replies) {
      const group = document.createElement('div');
      group.className = 'choices';
      group.setAttribute('role', 'group');
      group.setAttribute('aria-label', 'Quick replies');
      for (const option of m.quick_replies.options) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = option.title;
        b.addEventListener('click', () => choose(m.quick_replies.request_identifier, option.title, group));
        group.appendChild(b);
      }
      log.appendChild(group);
    }
    if (m.from === 'business' && (status.dataset.kind === 'typing' || (status.dataset.kind === 'stream' && !drafts.size))) {
      setStatus('');
      status.dataset.kind = '';
    }
    scrollDown();
  }

  function showChat(next) {
    const before = chat;
    chat = next;
    if (before && before.chat_id === next.chat_id) {
      if (before.handled_by !== 'person' && next.handled_by === 'person' && next.status === 'open') {
        addNotice('A person has joined the chat.');
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
    if (!closed && next.handled_by === 'waiting') setStatus('Waiting for someone to answer.');
    else if (closed || status.textContent === 'Waiting for someone to answer.') setStatus('');
    if (closed) status.dataset.kind = '';
  }

  // ---- live updates ----------------------------------------------------------------------

  function follow() {
    stopFollowing();
    if (!chat) return;
    const controller = new AbortController();
    stream = controller;
    const chatId = chat.chat_id;
    fetch(`${API}/chats/${encodeURIComponent(chatId)}/stream?after=${lastId}`, {
      headers: { authorization: `Bearer ${saved.token}`, accept: 'text/event-stream' },
      credentials: 'omit',
      cache: 'no-store',
      signal: controller.signal,
    })
      .then(async (res) => {
        if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut = buffer.indexOf('\n\n');
          while (cut !== -1) {
            handleEvent(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf('\n\n');
          }
        }
        throw new Error('stream ended');
      })
      .catch(() => {
        if (controller.signal.aborted || stream !== controller) return;
        // Reconnect and resume after the last message shown: nothing lost, nothing twice.
        retryTimer = setTimeout(follow, 2000);
      });
  }

  function stopFollowing() {
    clearTimeout(retryTimer);
    if (stream) stream.abort();
    stream = null;
  }

  function handleEvent(block) {
    let type = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (!data) return;
    let payload;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    if (type === 'message') renderMessage(payload, true);
    else if (type === 'chunk') renderChunk(payload);
    else if (type === 'chat') {
      showChat(payload);
      if (payload.status === 'closed') stopFollowing();
    } else if (type === 'typing') showTyping(payload);
  }

  // ---- actions ---------------------------------------------------------------------------

  function showError(err) {
    if (err instanceof ApiFailure) {
      if (err.code === 2012) error.textContent = 'You are sending messages too quickly. Please wait a moment and try again.';
      else if (err.code === 2035) error.textContent = 'This chat is not available at the moment.';
      else if (err.code === 2040) error.textContent = 'This chat has ended. Start a new chat to write again.';
      else error.textContent = err.message;
    } else {
      error.textContent = 'The message could not be sent. Check your connection and try again.';
    }
  }

  async function submit(event) {
    event.preventDefault();
    const value = text.value.trim();
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
        const started = await call('POST', '/chats', name ? { name, text: value } : { text: value });
        resetLog();
        showChat(started);
        await catchUp();
        follow();
      } else {
        renderMessage(await call('POST', `/chats/${encodeURIComponent(chat.chat_id)}/messages`, { text: value }));
      }
      text.value = '';
    } catch (err) {
      showError(err);
    } finally {
      busy = false;
      send.disabled = false;
      text.focus();
    }
  }

  async function choose(requestIdentifier, title, group) {
    if (!chat) return;
    for (const b of group.querySelectorAll('button')) b.disabled = true;
    error.textContent = '';
    try {
      const message = await call('POST', `/chats/${encodeURIComponent(chat.chat_id)}/messages`, {
        quick_reply_response: { request_identifier: requestIdentifier, options: [{ title }] },
      });
      renderMessage(message);
      text.focus();
    } catch (err) {
      for (const b of group.querySelectorAll('button')) b.disabled = false;
      showError(err);
    }
  }

  async function catchUp() {
    for (;;) {
      const page = await call('GET', `/chats/${encodeURIComponent(chat.chat_id)}/messages?after=${lastId}`);
      for (const m of page.messages) renderMessage(m, true);
      if (!page.more) break;
    }
  }

  function resetLog() {
    lastId = 0;
    shown = new Set();
    drafts = new Map();
    log.textContent = '';
  }

  function newChat() {
    stopFollowing();
    chat = null;
    resetLog();
    closedBox.hidden = true;
    composer.hidden = false;
    nameRow.hidden = false;
    setStatus('');
    status.dataset.kind = '';
    text.focus();
  }

  async function init() {
    composer.addEventListener('submit', submit);
    text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) composer.requestSubmit();
    });
    restart.addEventListener('click', newChat);
    if (embedded) {
      closeButton.hidden = false;
      closeButton.addEventListener('click', () => window.parent.postMessage({ type: 'va-chat:close' }, '*'));
      document.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') window.parent.postMessage({ type: 'va-chat:close' }, '*');
      });
      window.addEventListener('message', (e) => {
        if (e.source === window.parent && e.data && e.data.type === 'va-chat:focus') text.focus();
      });
    }
    try {
      const app = await call('GET', `/apps/${appId}`);
      if (!app.enabled) {
        composer.hidden = true;
        addNotice('This chat is not available at the moment.');
        return;
      }
      if (saved.token) {
        const current = await call('GET', '/chats/current');
        if (current.chat) {
          showChat(current.chat);
          await catchUp();
          if (current.chat.status === 'open') follow();
          return;
        }
      }
      nameRow.hidden = false;
      addNotice('Send a message to start the chat.');
    } catch (err) {
      showError(err);
    }
  }

  init();
})();
