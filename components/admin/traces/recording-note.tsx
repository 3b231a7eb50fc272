import type { z } from 'zod';
import type { requestRecordingSchema } from '@/contracts/admin/schemas/trace';

type Recording = z.infer<typeof requestRecordingSchema>;

const share = (rate: number) => `${Math.round(rate * 100)} %`;

/**
 * What the request log leaves out under the server's settings, said where its rows are listed, so
 * that a successful call missing from the list is not taken for a call never made. Nothing when
 * every call is recorded (or, on a chat's list, when that chat's are).
 */
export function RecordingNote({ recording, search = false }: { recording: Recording | undefined; search?: boolean }) {
  if (!recording || recording.successes === 'all') return null;
  if (search) {
    return (
      <p className="muted small" data-testid="recording-note">
        A successful call&apos;s trxid may not be in the request log:{' '}
        {recording.successes === 'none'
          ? 'successful calls are not recorded (the server’s BOT_REQUEST_LOG setting).'
          : `successful calls are recorded for ${share(recording.sample_rate)} of the chats, chosen by chat ID (BOT_REQUEST_LOG_SAMPLE_RATE).`}{' '}
        Failed calls always are; the server&apos;s log lines carry every trxid.
      </p>
    );
  }
  if (recording.successes === 'none') {
    return (
      <p className="muted small" data-testid="recording-note">
        Successful calls are not recorded (the server&apos;s <code>BOT_REQUEST_LOG</code> setting).
      </p>
    );
  }
  if (recording.chat_successes_recorded === true) return null;
  if (recording.chat_successes_recorded === false) {
    return (
      <p className="muted small" data-testid="recording-note">
        This chat&apos;s successful calls are not recorded: the log keeps them for {share(recording.sample_rate)} of the chats, chosen by
        chat ID (BOT_REQUEST_LOG_SAMPLE_RATE). Its failed calls are all here.
      </p>
    );
  }
  return (
    <p className="muted small" data-testid="recording-note">
      Successful calls are recorded for {share(recording.sample_rate)} of the chats, chosen by chat ID (BOT_REQUEST_LOG_SAMPLE_RATE): a chat
      has all its calls here or only its failed ones. Failed calls are always recorded.
    </p>
  );
}
