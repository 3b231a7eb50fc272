import { divertLogs, type LogLine } from '@/platform/util/logger';

/**
 * Runs `work`, which provokes failures on purpose: the error-level lines whose message is one of
 * `messages` are kept from the test output and answered, for the test to check they were logged.
 * Any other line is written as usual, so an unexpected error still shows.
 */
export async function expectingErrors<T>(messages: string[], work: () => Promise<T>): Promise<{ value: T; logged: LogLine[] }> {
  const logged: LogLine[] = [];
  const end = divertLogs((line) => {
    if (line.level !== 'error' || !messages.includes(line.msg)) return false;
    logged.push(line);
    return true;
  });
  try {
    return { value: await work(), logged };
  } finally {
    end();
  }
}
