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
  let lastId = 0;
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

  function renderMessage(m) {
    if (m.id <= lastId) return;
    lastId = m.id;
    const mine = m.from === 'customer';
    const el = document.createElement('div');
    el.className = `msg ${mine ? 'customer' : 'business'}`;
    el.dataset.id = String(m.id);
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = mine ? 'You: ' : `${document.getElementById('chat-title').textContent}: `;
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
    log.appendChild(el);
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
    if (m.from === 'business') status.textContent = '';
    scrollDown();
  }

  function showChat(next) {
    const before = chat;
    chat = next;
    if (before && before.chat_id === next.chat_id) {
      if (before.handled_by !== 'person' && next.handled_by === 'person' && next.status === 'open') {
        addNotice('A person has joined the chat.');
      }
      if (before.status === 'open' && next.status === 'closed') addNotice('This chat has ended.');
    }
    const closed = next.status === 'closed';
    closedBox.hidden = !closed;
    composer.hidden = closed;
    nameRow.hidden = true;
    if (!closed && next.handled_by === 'waiting') status.textContent = 'Waiting for someone to answer.';
    else if (closed) status.textContent = '';
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
    if (type === 'message') renderMessage(payload);
    else if (type === 'chat') {
      showChat(payload);
      if (payload.status === 'closed') stopFollowing();
    } else if (type === 'typing') {
      status.textContent = payload.active ? payload.status_text || 'Typing…' : '';
    }
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
        lastId = 0;
        log.textContent = '';
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
      for (const m of page.messages) renderMessage(m);
      if (!page.more) break;
    }
  }

  function newChat() {
    stopFollowing();
    chat = null;
    lastId = 0;
    log.textContent = '';
    closedBox.hidden = true;
    composer.hidden = false;
    nameRow.hidden = false;
    status.textContent = '';
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
