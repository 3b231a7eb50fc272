import type { BotAction, BotTurn, RecordingLine } from '@/contracts/admin/schemas/recording';
import { normalizeText } from './normalize-text';

export const CHANGE_KINDS = [
  'reached',
  'text',
  'quick_replies',
  'typing',
  'tags',
  'custom_fields',
  'transfer',
  'close',
  'handover',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
type ActionKind = BotAction['type'];

export type TurnDiff = {
  /** 1-based, as a person counts turns. */
  turn: number;
  /** False when the baseline did not record this turn (a hand-written scenario). */
  compared: boolean;
  changed: boolean;
  changes: ChangeKind[];
  text_exact_equal: boolean;
  text_normalised_equal: boolean;
  /** Where each side handed the chat over in this turn (`Team` or `Team / skill`), null for none. */
  handover: { baseline: string | null; candidate: string | null };
  latency_ms: { baseline: number | null; candidate: number | null };
  /** Both sides' actions, only when the turn changed (keeps the summary small). */
  baseline?: BotTurn | null;
  candidate?: BotTurn | null;
};

export type ChatDiff = {
  id: string;
  seq: number;
  changed: boolean;
  first_changed_turn: number | null;
  handover_changed: boolean;
  changes: ChangeKind[];
  /** The candidate's replay failed for this chat (its error); counted as changed. */
  error?: string;
  turns: TurnDiff[];
};

export type DiffOptions = {
  /** `normalised` (default): text differing only in whitespace, numbers, ids or dates is unchanged. */
  text?: 'exact' | 'normalised';
};

const ALL_KINDS: ActionKind[] = ['message', 'typing', 'tags', 'custom_fields', 'transfer', 'close'];

/**
 * Compares one chat's candidate replay with its baseline (the recording, or another replay of
 * it), turn by turn. Only the action kinds both sides recorded are compared (an export from the
 * transcript has no typing, tags or custom fields per turn).
 */
export function diffChat(baseline: RecordingLine, candidate: RecordingLine, options: DiffOptions = {}): ChatDiff {
  const kinds = new Set<ActionKind>(
    ALL_KINDS.filter((k) => (baseline.recorded_actions ?? ALL_KINDS).includes(k) && (candidate.recorded_actions ?? ALL_KINDS).includes(k)),
  );
  const turns: TurnDiff[] = [];
  const count = Math.max(baseline.turns.length, candidate.turns.length);
  for (let i = 0; i < count; i++) {
    turns.push(diffTurn(i + 1, baseline.turns[i]?.bot, candidate.turns[i]?.bot, kinds, options));
  }
  const error = candidate.replay?.error;
  const changes = [...new Set(turns.flatMap((t) => t.changes))];
  const first = turns.find((t) => t.changed)?.turn ?? null;
  return {
    id: candidate.id,
    seq: candidate.replay?.seq ?? baseline.replay?.seq ?? 0,
    changed: first !== null || error !== undefined,
    first_changed_turn: first ?? (error !== undefined ? 1 : null),
    handover_changed: changes.includes('handover'),
    changes,
    ...(error !== undefined && { error }),
    turns,
  };
}

function diffTurn(
  turn: number,
  a: BotTurn | null | undefined,
  b: BotTurn | null | undefined,
  kinds: Set<ActionKind>,
  options: DiffOptions,
): TurnDiff {
  const latency = { baseline: a?.latency_ms ?? null, candidate: b?.latency_ms ?? null };
  if (a === undefined) {
    return {
      turn,
      compared: false,
      changed: false,
      changes: [],
      text_exact_equal: true,
      text_normalised_equal: true,
      handover: { baseline: null, candidate: handoverOf(b) },
      latency_ms: latency,
    };
  }
  const changes: ChangeKind[] = [];
  // A turn one side sent and the other never did (the bot had let the chat go) differs in that alone.
  const reached = (a === null) !== (b === null || b === undefined);
  if (reached) changes.push('reached');
  const textA = texts(a);
  const textB = texts(b);
  const exact = textA.join('\n') === textB.join('\n');
  const normalised = textA.map(normalizeText).join('\n') === textB.map(normalizeText).join('\n');
  if (kinds.has('message') && !reached) {
    if (!(options.text === 'exact' ? exact : normalised)) changes.push('text');
    if (JSON.stringify(quickReplies(a)) !== JSON.stringify(quickReplies(b))) changes.push('quick_replies');
  }
  if (reached) return finish(turn, changes, exact, normalised, { baseline: handoverOf(a), candidate: handoverOf(b) }, latency, a, b);
  if (kinds.has('typing') && has(a, 'typing') !== has(b, 'typing')) changes.push('typing');
  for (const kind of ['tags', 'custom_fields', 'close'] as const) {
    if (kinds.has(kind) && stable(last(a, kind)) !== stable(last(b, kind))) changes.push(kind);
  }
  const handover = { baseline: handoverOf(a), candidate: handoverOf(b) };
  if (kinds.has('transfer') && handover.baseline !== handover.candidate) {
    // A transfer made or dropped is a changed handover decision; one to another target is a changed transfer.
    changes.push(handover.baseline === null || handover.candidate === null ? 'handover' : 'transfer');
  }
  return finish(turn, changes, exact, normalised, handover, latency, a, b);
}

function finish(
  turn: number,
  changes: ChangeKind[],
  exact: boolean,
  normalised: boolean,
  handover: TurnDiff['handover'],
  latency: TurnDiff['latency_ms'],
  a: BotTurn | null,
  b: BotTurn | null | undefined,
): TurnDiff {
  const changed = changes.length > 0;
  return {
    turn,
    compared: true,
    changed,
    changes,
    text_exact_equal: exact,
    text_normalised_equal: normalised,
    handover,
    latency_ms: latency,
    ...(changed && { baseline: a, candidate: b ?? null }),
  };
}

const actionsOf = (t: BotTurn | null | undefined) => t?.actions ?? [];
const texts = (t: BotTurn | null | undefined) =>
  actionsOf(t).flatMap((a) => (a.type === 'message' ? [a.text + (a.attachment ? ` [${a.attachment.type}]` : '')] : []));
const quickReplies = (t: BotTurn | null | undefined) =>
  actionsOf(t).flatMap((a) => (a.type === 'message' && a.quick_replies ? [a.quick_replies] : []));
const has = (t: BotTurn | null | undefined, type: ActionKind) => actionsOf(t).some((a) => a.type === type);
const last = (t: BotTurn | null | undefined, type: ActionKind) => actionsOf(t).findLast((a) => a.type === type) ?? null;

function handoverOf(t: BotTurn | null | undefined): string | null {
  const transfer = actionsOf(t).findLast((a) => a.type === 'transfer');
  if (transfer?.type !== 'transfer') return null;
  return transfer.skill ? `${transfer.team} / ${transfer.skill}` : transfer.team;
}

/** JSON with object keys sorted, so two equal values compare equal whatever their key order. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
  );
}
