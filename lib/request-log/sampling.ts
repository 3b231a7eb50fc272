import { botRequestSampleRate, env } from '@/env';

/**
 * How the request log records successful calls under the server's settings: `all`, `sampled`
 * (`rate` of the chats, chosen by chat ID) or `none`. Failures are recorded in every mode but
 * BOT_REQUEST_LOG=off. Shown on the console's request lists, so that a call missing from them is
 * not taken for a call never made.
 */
export type SuccessRecording = { mode: 'all' | 'sampled' | 'none'; rate: number };

function successRecording(): SuccessRecording {
  const log = env().BOT_REQUEST_LOG;
  const rate = botRequestSampleRate();
  if (log !== 'all' || rate <= 0) return { mode: 'none', rate: 0 };
  return rate >= 1 ? { mode: 'all', rate: 1 } : { mode: 'sampled', rate };
}

/**
 * Whether the successful calls keyed by `key` are recorded at `rate`. The key is the chat ID the
 * call is about (its trxid for a call about no chat), so a chat's calls are all in the log or
 * only its failures are, and every instance decides alike: the 32-bit FNV-1a hash of the key, as
 * a fraction, below the rate.
 */
export function successRecorded(key: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 0x100000000 < rate;
}

/**
 * The admin API's `recording` (trace look-up and request-log answers): the mode and rate, and,
 * for a chat's list, whether that chat's successful calls are recorded.
 */
export function recordingView(chatId?: string) {
  const { mode, rate } = successRecording();
  return {
    successes: mode,
    sample_rate: rate,
    chat_successes_recorded: chatId === undefined ? null : mode !== 'none' && successRecorded(chatId, rate),
  };
}
