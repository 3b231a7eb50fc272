import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import { passwordCheckerKept, passwordProblem } from './password-policy';

describe('password policy', () => {
  afterEach(() => mock.timers.reset());

  // First: the checker must be built under the mocked clock.
  it('keeps its word lists a minute after the last check, then lets them go', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    assert.equal(passwordProblem('staple lantern orbit crumble'), null);
    assert.equal(passwordCheckerKept(), true);
    mock.timers.tick(59_000);
    // A check within the minute reuses the checker and starts the minute again.
    assert.equal(passwordProblem('orbit crumble staple lantern'), null);
    mock.timers.tick(59_000);
    assert.equal(passwordCheckerKept(), true);
    mock.timers.tick(1_000);
    assert.equal(passwordCheckerKept(), false);
    // The next check builds it again.
    assert.match(passwordProblem('password1234') ?? '', /too easy to guess/);
    assert.equal(passwordCheckerKept(), true);
  });

  it('refuses short, long and guessable passwords and accepts a long phrase', () => {
    assert.match(passwordProblem('short') ?? '', /at least 12 characters/);
    assert.match(passwordProblem('x'.repeat(257)) ?? '', /at most 256 characters/);
    assert.match(passwordProblem('password1234') ?? '', /too easy to guess/);
    assert.match(passwordProblem('aaaaaaaaaaaa') ?? '', /too easy to guess/);
    assert.equal(passwordProblem('staple lantern orbit crumble'), null);
  });

  it("counts the user's own details as guessable", () => {
    assert.equal(passwordProblem('marigoldharbour77'), null);
    assert.match(passwordProblem('marigoldharbour77', ['ops@example.test', 'marigoldharbour77']) ?? '', /too easy to guess/);
  });
});
