'use client';

import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import type { handoverCardSchema } from '@/contracts/bot/schemas/handover';

export type HandoverCardData = z.infer<typeof handoverCardSchema>;

const SOURCES: Record<HandoverCardData['source'], string> = {
  transfer: 'the bot transferred it',
  assignee: 'the bot handed it to a person',
  taken_over: 'a person took it over',
  bot_down: 'the bot stopped answering',
  reply_timeout: 'the bot did not reply in time',
  person_request: 'the customer asked for a person',
};

/**
 * What the bot understood, collected and tried, from its latest handover: shown to people above the
 * transcript (never to the customer), in the workspace and on the console's chat page.
 */
export function HandoverCard({ card, headingLevel = 3 }: { card: HandoverCardData; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const fields = Object.entries(card.fields);
  return (
    <section className="handover-card card" aria-labelledby="handover-card-title" data-testid="handover-card">
      <Heading id="handover-card-title">Handover from {card.from}</Heading>
      <p className="small muted">
        {new Date(card.at).toLocaleString()}: {SOURCES[card.source]}. Handover {card.handovers} of {card.max_handovers} for this bot.
      </p>
      <dl className="kv">
        <dt>Reason</dt>
        <dd>{card.reason ?? '—'}</dd>
        <dt>Intent</dt>
        <dd>{card.intent ?? '—'}</dd>
        <dt>Summary</dt>
        <dd className="pre-wrap">{card.summary ?? '—'}</dd>
        {fields.map(([k, v]) => (
          <div key={k} className="kv-pair">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {card.handed_back && (
        <p className="small">
          Handed back by {card.handed_back.by} on {new Date(card.handed_back.at).toLocaleString()}
          {card.handed_back.note ? `: “${card.handed_back.note}”` : '.'}
        </p>
      )}
    </section>
  );
}

/**
 * "Hand back to bot" with an optional note for the bot; once the bot has handed this chat over
 * `max_handovers` times it says why the chat stays with people instead.
 */
export function HandBack({
  card,
  busy,
  onHandBack,
}: {
  card: HandoverCardData | null;
  busy: boolean;
  onHandBack: (note: string | undefined) => void;
}) {
  const [note, setNote] = useState('');
  if (!card) return null;
  if (!card.can_hand_back) {
    return (
      <section aria-labelledby="handback-title">
        <h3 id="handback-title">Hand back to bot</h3>
        <p className="small" data-testid="loop-limit">
          This chat cannot go back to {card.from}: the bot has handed it to people {card.handovers} times, its limit (max_handovers_per_chat{' '}
          {card.max_handovers}). It stays with people; close it or transfer it to a person or team.
        </p>
      </section>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onHandBack(note.trim() || undefined);
    setNote('');
  };
  return (
    <section aria-labelledby="handback-title">
      <h3 id="handback-title">Hand back to bot</h3>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="handback-note">Note for {card.from} (optional)</label>
          <textarea id="handback-note" rows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        <button type="submit" className="btn" disabled={busy}>
          Hand back to bot
        </button>
      </form>
    </section>
  );
}
