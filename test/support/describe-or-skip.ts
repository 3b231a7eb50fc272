import { describe, it } from 'node:test';

/**
 * `describe`, or, when `skip` gives a reason, one skipped test of the same name. Node's runner
 * counts a skipped suite as a suite, not in its "skipped" total, so a file skipped on the embedded
 * database would not show in the summary; a skipped test does.
 */
export function describeOrSkip(name: string, skip: string | false | undefined, fn: () => void): void {
  if (skip) it(name, { skip }, () => {});
  else describe(name, fn);
}
