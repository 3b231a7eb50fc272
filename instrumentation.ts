// Next.js calls this once when the server starts: check the configuration (a bad variable stops the
// process at once, one line per problem), open and migrate the database, create the first account
// if there is none, start webhook delivery (and the Inngest hand-over when it is the engine), and
// take over SIGTERM for a graceful stop, all before the first request arrives.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { env, environmentProblems } = await import('./lib/env');
  const problems = environmentProblems();
  if (problems.length) {
    for (const problem of problems) console.error(`Invalid configuration: ${problem}`);
    process.exit(1);
  }
  const { startServer } = await import('./lib/startup/start-server');
  await startServer();
  if (env().DELIVERY_ENGINE === 'inngest') {
    const { startInngestHandOver } = await import('./inngest/hand-over');
    await startInngestHandOver();
  }
  const { installShutdown } = await import('./lib/startup/shutdown');
  installShutdown();
}
