import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

const MIN_PASSWORD_LENGTH = 12;
/** zxcvbn's score (0-4): 3 is "safely unguessable: moderate protection from offline attacks". */
const MIN_SCORE = 3;

let checker: ZxcvbnFactory | undefined;

/**
 * Why a password is refused, or null when it is acceptable: at least 12 characters, and a zxcvbn
 * score of at least 3 against its common-password and name lists and the user's own details
 * (`related`: email, account name), so `aaaaaaaaaaaa` or `password1234` do not pass.
 */
export function passwordProblem(password: string, related: string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > 256) return 'must have at most 256 characters';
  checker ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  // zxcvbn only looks at the first 100 characters; longer ones are long enough.
  const result = checker.check(password.slice(0, 100), related);
  if (result.score < MIN_SCORE) return 'is too easy to guess (common, repeated or predictable); use a longer phrase of unrelated words';
  return null;
}
