'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type LiveSource, openLiveSource } from '@/components/live/live-source';
import { applyInOrder, withChunk, withMessage } from '@/components/live/transcript';
import type { TranscriptChunk } from '@/contracts/bot/schemas/message';
import { type AgentChat, keys, type Lists, type Message } from './client';

/** The most transcript messages the page keeps, as GET /chats/{id} answers. */
const TRANSCRIPT_LIMIT = 500;

/** How long `gone` waits for the page's own leaving (a transfer, a hand-back, a close) to close the stream. */
const GONE_GRACE_MS = 1_000;

const parse = <T>(e: Event) => JSON.parse((e as MessageEvent<string>).data) as T;

/** A cached answer of the typed client: the envelope's `response` is what the stream changes. */
type Answer<T> = { status: 200; body: { status_code: 4400; description: string; response: T }; headers: Headers };
const answer = <T>(old: Answer<T> | undefined, response: T): Answer<T> =>
  old
    ? { ...old, body: { ...old.body, response } }
    : { status: 200, body: { status_code: 4400, description: 'OK', response }, headers: new Headers() };

/**
 * The live view: one Server-Sent Events stream (GET /api/agent/stream) for the lists and the open
 * chat's changes, applied to the cached answers without a read: `lists` and `chat` replace them,
 * `message` and `chunk` change the transcript, `details` the rest; `gone` (the chat left the
 * person's teams) reads the chat once, for the page to say why. It is opened again when the open
 * chat changes; EventSource reconnects by itself after a drop and sends the last id, from which
 * the stream resumes, and one it gave up on (an answer that was no stream: 503 in an outage) is
 * opened again (components/live/live-source.ts).
 */
export function useLiveStream(chatId: string | null) {
  const qc = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const queryKey = keys.chat(chatId ?? '');
    const changeAnswer = applyInOrder<Answer<AgentChat> | undefined>(qc, queryKey);
    const change = (update: (old: AgentChat) => AgentChat, replace = false) =>
      changeAnswer((old) => answer(old, update(old?.body.response as AgentChat)), replace);
    let closed = false;
    const attach = (source: LiveSource) => {
      source.addEventListener('lists', (e) => {
        const lists = parse<Lists>(e);
        qc.setQueryData<Answer<Lists>>(keys.lists, (old) => answer(old, lists));
      });
      source.addEventListener('chat', (e) => {
        const chat = parse<AgentChat>(e);
        change(() => chat, true);
      });
      source.addEventListener('message', (e) =>
        change((old) => ({ ...old, transcript: withMessage(old.transcript, parse<Message>(e), TRANSCRIPT_LIMIT) })),
      );
      source.addEventListener('chunk', (e) =>
        change((old) => ({ ...old, transcript: withChunk(old.transcript, parse<TranscriptChunk>(e)) })),
      );
      source.addEventListener('details', (e) => {
        const details = parse<Omit<AgentChat, 'transcript'>>(e);
        change((old) => ({ ...old, ...details, chat: { ...old.chat, ...details.chat } }));
      });
      source.addEventListener('gone', () => {
        // Unless the person's own action took the chat away (the page then closes this stream and drops
        // the chat), read it once so the page says why; never a read the answer would refuse for nothing.
        setTimeout(() => {
          if (!closed && chatId && qc.getQueryState(keys.chat(chatId))) qc.invalidateQueries({ queryKey: keys.chat(chatId) });
        }, GONE_GRACE_MS);
      });
    };
    const close = openLiveSource(`/api/agent/stream${chatId ? `?chat=${encodeURIComponent(chatId)}` : ''}`, attach, {
      onOpen: setConnected,
    });
    return () => {
      closed = true;
      close();
    };
  }, [chatId, qc]);
  return connected;
}
