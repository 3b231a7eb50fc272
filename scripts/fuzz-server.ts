/**
 * npm run fuzz:server -- <base-url>: test/support/fuzz-server.ts against any running server, for
 * use behind Prism's validating proxy (FUZZ_MILD=1) or against a deployment. The test run does the
 * same against the production build (test/ops/fuzz-server.integration.test.ts). ADMIN_EMAIL and
 * ADMIN_PASSWORD: the server's administrator; FUZZ_REQUESTS (4000), FUZZ_SEED. Exit code 1 when an
 * answer was a 5xx or not an envelope, or broke the document.
 */
import { fuzzServer } from '@/test/support/fuzz-server';

async function main() {
  const email = process.env.ADMIN_EMAIL;
  const password = process.env.ADMIN_PASSWORD;
  if (!email || !password) throw new Error('set ADMIN_EMAIL and ADMIN_PASSWORD to the server’s administrator');
  const r = await fuzzServer({
    base: process.argv[2] ?? 'http://127.0.0.1:3000',
    email,
    password,
    requests: Number(process.env.FUZZ_REQUESTS ?? 4000),
    seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
    mild: process.env.FUZZ_MILD === '1',
  });
  console.log(`seed ${r.seed}: ${r.requests} requests; statuses ${JSON.stringify(Object.fromEntries([...r.statuses].sort()))}`);
  console.log(`${r.failures.length} answers were a 5xx or not an envelope`);
  for (const f of r.failures.slice(0, 40)) console.log(`  ${f}`);
  console.log(`${r.documentBreaks.length} answers break the document (Prism's sl-violations header, when proxied)`);
  for (const b of r.documentBreaks.slice(0, 40)) console.log(`  ${b}`);
  process.exit(r.failures.length || r.documentBreaks.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
