import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startNodeFlags } from './production-server';

describe("the tests' servers run with npm start's node flags", () => {
  const checkout = (start: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-flags-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { start } }));
    return dir;
  };

  it("reads them from package.json's start script, none when it gives none", () => {
    assert.deepEqual(startNodeFlags(checkout('node --max-semi-space-size=2 --stack-trace-limit=20 scripts/start.mjs')), [
      '--max-semi-space-size=2',
      '--stack-trace-limit=20',
    ]);
    assert.deepEqual(startNodeFlags(checkout('node scripts/start.mjs')), []);
  });

  it('refuses a start script of another shape rather than start the server without its flags', () => {
    assert.throws(() => startNodeFlags(checkout('NODE_OPTIONS=--x node scripts/start.mjs')), /not `node \[flags\] scripts\/start\.mjs`/);
    assert.throws(() => startNodeFlags(checkout('node scripts/start.mjs --next')), /not `node \[flags\] scripts\/start\.mjs`/);
  });

  it("this checkout's start script parses", () => {
    assert.ok(Array.isArray(startNodeFlags()));
  });
});
