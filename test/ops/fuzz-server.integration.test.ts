import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { env } from '@/env';
import { describeOrSkip } from '../support/describe-or-skip';
import { fuzzServer } from '../support/fuzz-server';
import { freePort } from '../support/private-cluster';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '../support/production-server';

const REQUESTS = 1000;

/**
 * The production build (`npm start`, embedded database) answers 1,000 random bad requests, spread
 * over every operation of the OpenAPI documents, each with an envelope and a status below 500, and
 * logs no error while doing so. Once, in the embedded pass: the server is the same on PostgreSQL,
 * and its demo data would land in the shared database there.
 */
describeOrSkip(
  'random bad requests against the production server',
  env().DATABASE_URL ? 'runs in the embedded-database pass' : false,
  () => {
    let server: ProductionServer;
    let dataDir: string;
    const admin = { email: 'fuzz@example.test', password: `fuzz-${randomBytes(9).toString('hex')}` };

    before(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-fuzz-'));
      server = startProductionServer(await freePort(), {
        DATA_DIR: path.join(dataDir, 'pglite'),
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_PER_MINUTE: '100000000',
        ADMIN_RATE_LIMIT_PER_MINUTE: '100000000',
        BOT_AUTH_FAILURES_PER_MINUTE: '100000000',
      });
      await waitForServer(server);
    });

    after(async () => {
      if (server) await stopProductionServer(server);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers every one with an envelope below 500, and logs no error', async (t) => {
      // FUZZ_SEED=<the seed printed by a failed run> repeats it.
      const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
      const result = await fuzzServer({ base: server.base, ...admin, requests: REQUESTS, seed });
      t.diagnostic(
        `seed ${result.seed} (FUZZ_SEED repeats it): statuses ${JSON.stringify(Object.fromEntries([...result.statuses].sort()))}`,
      );
      assert.deepEqual(
        result.failures.slice(0, 20),
        [],
        `seed ${result.seed}: ${result.failures.length} answers were a 5xx or not an envelope`,
      );
      const errors = server.out.filter((line) => /"level":"(error|fatal)"/.test(line));
      assert.deepEqual(errors.slice(0, 20), [], `seed ${result.seed}: the server logged errors while answering bad input`);
    });
  },
);
