/**
 * A node:test reporter that prints what the cases write with `t.diagnostic` as a markdown report,
 * each case's part followed by its result: `npm run drill:ops` (TEST_REPORTER for scripts/test.mjs).
 * The runner's own lines go elsewhere: what the test process writes on stderr (the drill's progress)
 * to stderr as it comes, so stdout is the report alone; its closing summary is replaced by one
 * line of counts.
 */

/** The failure's own error: the runner wraps it (a failed case, a failed hook) in one of its own. */
function failure(error) {
  const cause = error?.cause ?? error;
  if (cause?.code === 'ERR_ASSERTION') return cause.message;
  return cause?.stack ?? cause?.message ?? String(cause);
}

const seconds = (details) => `${(details.duration_ms / 1000).toFixed(1)} s`;

export default async function* drillReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  // A case's diagnostics come after its result: the result line waits until they are through.
  let result = null;
  for await (const { type, data } of source) {
    if (type === 'test:diagnostic') {
      // Those without a file are the runner's summary (tests, pass, fail, duration).
      if (data.file !== undefined) yield `${data.message}\n\n`;
      continue;
    }
    if (result && (type === 'test:start' || type === 'test:pass' || type === 'test:fail' || type === 'test:plan')) {
      yield result;
      result = null;
    }
    switch (type) {
      case 'test:stderr':
        process.stderr.write(data.message);
        break;
      case 'test:stdout':
        yield data.message;
        break;
      case 'test:pass':
        if (data.details.type === 'suite') break;
        if (data.skip !== undefined || data.todo !== undefined) {
          counts.skipped++;
          result = `**${data.name}: skipped** (${data.skip || data.todo || 'no reason given'})\n\n`;
        } else {
          counts.passed++;
          result = `**${data.name}: passed** in ${seconds(data.details)}\n\n`;
        }
        break;
      case 'test:fail': {
        // A suite fails for its failed cases, already told, or for a hook of its own: told here.
        if (data.details.type === 'suite' && data.details.error?.failureType === 'subtestsFailed') break;
        if (data.details.type !== 'suite') counts.failed++;
        const why = data.details.error?.failureType === 'cancelledByParent' ? 'not run' : 'FAILED';
        result = `**${data.name}: ${why}** after ${seconds(data.details)}\n\n\`\`\`\n${failure(data.details.error)}\n\`\`\`\n\n`;
        break;
      }
    }
  }
  if (result) yield result;
  yield `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
}
