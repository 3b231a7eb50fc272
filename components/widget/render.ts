import type { WidgetMessage } from '@/contracts/widget/schemas';

/** Text with its http(s) addresses as links; everything else stays text (never HTML). */
function richText(el: HTMLElement, value: string): void {
  const parts = value.split(/(https?:\/\/[^\s<>"']+)/g);
  parts.forEach((part, i) => {
    if (i % 2 === 1 && /^https?:\/\//i.test(part)) el.appendChild(link(part, part));
    else if (part) el.appendChild(document.createTextNode(part));
  });
}

function link(href: string, label: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = label;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

function isHttp(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function who(label: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = 'who';
  span.textContent = label;
  return span;
}

/** A message bubble: who wrote it, its text (or the choice made), its attachment if an http(s) one. */
export function messageElement(m: WidgetMessage, title: string): HTMLDivElement {
  const mine = m.from === 'customer';
  const el = document.createElement('div');
  el.className = `msg ${mine ? 'customer' : 'business'}`;
  el.dataset.id = String(m.id);
  el.appendChild(who(mine ? 'You: ' : `${title}: `));
  if (m.withdrawn) {
    el.classList.add('withdrawn');
    const note = document.createElement('em');
    note.textContent = 'Reply withdrawn: answering your latest message instead.';
    el.appendChild(note);
    return el;
  }
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
      if (m.text) el.appendChild(document.createElement('br'));
      el.appendChild(link(m.attachment.url, 'Open the attached file'));
    }
  }
  return el;
}

/**
 * The bubble a streamed reply grows in, hidden from screen readers (the log would announce every
 * chunk); the finished message takes its place and is announced once.
 */
export function draftElement(messageId: number, title: string): { el: HTMLDivElement; body: HTMLSpanElement } {
  const el = document.createElement('div');
  el.className = 'msg business draft';
  el.dataset.id = String(messageId);
  el.setAttribute('aria-hidden', 'true');
  const body = document.createElement('span');
  body.className = 'draft-text';
  el.append(who(`${title}: `), body);
  return { el, body };
}

/** The quick replies offered with a message, as a group of buttons. */
export function choicesElement(options: { title: string }[], onChoose: (title: string, group: HTMLElement) => void): HTMLDivElement {
  const group = document.createElement('div');
  group.className = 'choices';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Quick replies');
  for (const option of options) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = option.title;
    b.addEventListener('click', () => onChoose(option.title, group));
    group.appendChild(b);
  }
  return group;
}
