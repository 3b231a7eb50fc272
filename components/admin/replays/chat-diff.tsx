'use client';

import { TableRegion } from '@/components/admin/table-region';
import type { BotAction, BotTurn } from '@/contracts/admin/schemas/recording';
import type { ChatDiff, TurnDiff } from '@/lib/replay/diff-chat';

const texts = (t: BotTurn | null | undefined) => (t?.actions ?? []).flatMap((a) => (a.type === 'message' ? [a.text] : []));
const replies = (t: BotTurn | null | undefined) =>
  (t?.actions ?? []).flatMap((a) => (a.type === 'message' && a.quick_replies ? a.quick_replies.map((q) => q.title) : []));

function actionLabel(a: BotAction): string | null {
  switch (a.type) {
    case 'message':
      return null;
    case 'typing':
      return 'typing';
    case 'tags':
      return `tags: ${a.tags.join(', ') || '(none)'}`;
    case 'custom_fields':
      return `fields: ${Object.entries(a.fields)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`;
    case 'transfer':
      return `transfer to ${a.team}${a.skill ? ` / ${a.skill}` : ''}`;
    case 'close':
      return `close${a.outcome ? ` (${a.outcome})` : ''}`;
  }
}
const actions = (t: BotTurn | null | undefined) => (t?.actions ?? []).map(actionLabel).filter((x): x is string => x !== null);

/** One side of a turn: its messages, quick replies and other actions; "not reached" when the turn was never sent. */
function Side({ turn, reached }: { turn: BotTurn | null | undefined; reached: boolean }) {
  if (!reached) return <span className="muted">not reached (the chat had left the bot)</span>;
  const said = texts(turn);
  const qr = replies(turn);
  const did = actions(turn);
  if (!said.length && !qr.length && !did.length) return <span className="muted">did nothing</span>;
  return (
    <>
      {said.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a turn's messages in their order
        <p key={i} className="replay-text">
          {s || <span className="muted">(empty text)</span>}
        </p>
      ))}
      {qr.length > 0 && <p className="small">Quick replies: {qr.join(' · ')}</p>}
      {did.length > 0 && <p className="small">{did.join('; ')}</p>}
    </>
  );
}

function TurnRow({ t }: { t: TurnDiff }) {
  const latency = (v: number | null) => (v === null ? '—' : `${v} ms`);
  const handover =
    t.handover.baseline === t.handover.candidate
      ? (t.handover.candidate ?? '—')
      : `${t.handover.baseline ?? 'stays with the bot'} → ${t.handover.candidate ?? 'stays with the bot'}`;
  return (
    <tr className={t.changed ? 'replay-turn-changed' : undefined} data-testid={`turn-${t.turn}`}>
      <th scope="row" className="num">
        {t.turn}
      </th>
      <td>{t.compared ? t.changes.join(', ') || 'same' : <span className="muted">not recorded</span>}</td>
      <td>{t.changed ? <Side turn={t.baseline} reached={t.baseline !== null} /> : <span className="muted">same</span>}</td>
      <td>{t.changed ? <Side turn={t.candidate} reached={t.candidate !== null} /> : <span className="muted">same</span>}</td>
      <td className={t.changes.includes('handover') || t.changes.includes('transfer') ? 'replay-strong' : undefined}>{handover}</td>
      <td className="num">
        {latency(t.latency_ms.baseline)} → {latency(t.latency_ms.candidate)}
      </td>
    </tr>
  );
}

/** A chat's diff, turn by turn: what changed, both sides of each changed turn, handover decisions and latencies. */
export function ChatDiffView({ chat, againstLabel }: { chat: ChatDiff; againstLabel: string }) {
  return (
    <details className="replay-chat" data-testid={`chat-${chat.id}`} open={chat.changed && chat.handover_changed}>
      <summary>
        <strong>{chat.id}</strong> <span className="muted">(line {chat.seq + 1})</span>{' '}
        {chat.changed ? (
          <>
            changed from turn <strong>{chat.first_changed_turn}</strong>: {chat.changes.join(', ') || 'replay failed'}
            {chat.handover_changed && <span className="badge badge-bad">handover decision changed</span>}
          </>
        ) : (
          <span className="muted">unchanged</span>
        )}
        {chat.error && <span className="field-error"> Replay error: {chat.error}</span>}
      </summary>
      <TableRegion label={`Turns of ${chat.id}`}>
        <table className="replay-turns">
          <caption className="sr-only">Turns of {chat.id}</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Turn
              </th>
              <th scope="col">Changed</th>
              <th scope="col">{againstLabel}</th>
              <th scope="col">This run</th>
              <th scope="col">Handover</th>
              <th scope="col" className="num">
                Reply latency
              </th>
            </tr>
          </thead>
          <tbody>
            {chat.turns.map((t) => (
              <TurnRow key={t.turn} t={t} />
            ))}
          </tbody>
        </table>
      </TableRegion>
    </details>
  );
}
