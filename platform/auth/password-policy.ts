import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

const MIN_PASSWORD_LENGTH = 12;
/** zxcvbn's score (0-4): 3 is "safely unguessable: moderate protection from offline attacks". */
const MIN_SCORE = 3;

/**
 * The checker's ranked word lists take about 3 MiB of heap for as long as it is kept, and passwords
 * are checked rarely (the first start, an account created, an invite accepted): it is built on
 * first use and dropped a minute after the last, so a run of invites shares one and an idle server
 * does not carry it.
 */
const KEEP_CHECKER_MS = 60_000;
let checker: { zxcvbn: ZxcvbnFactory; drop?: NodeJS.Timeout } | undefined;

function passwordChecker(): ZxcvbnFactory {
  checker ??= { zxcvbn: new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }) };
  clearTimeout(checker.drop);
  checker.drop = setTimeout(() => {
    checker = undefined;
  }, KEEP_CHECKER_MS);
  checker.drop.unref?.();
  return checker.zxcvbn;
}

/**
 * Why a password is refused, or null when it is acceptable: at least 12 characters, and a zxcvbn
 * score of at least 3 against its common-password and name lists and the user's own details
 * (`related`: email, account name), so `aaaaaaaaaaaa` or `password1234` do not pass.
 */
export function passwordProblem(password: string, related: string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > 256) return 'must have at most 256 characters';
  // zxcvbn only looks at the first 100 characters; longer ones are long enough.
  const result = passwordChecker().check(password.slice(0, 100), related);
  if (result.score < MIN_SCORE) return 'is too easy to guess (common, repeated or predictable); use a longer phrase of unrelated words';
  return null;
}

/** Whether a checker is built and kept (for tests of its release). */
export const passwordCheckerKept = (): boolean => checker !== undefined;
