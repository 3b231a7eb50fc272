// Next.js calls this once when the server starts: check the configuration (a bad variable stops the
// process at once, one line per problem), open and migrate the database, create the first account
// if there is none, start webhook delivery (and the Inngest hand-over when it is the engine), and
// take over SIGTERM for a graceful stop, all before the first request arrives. A failure to start
// exits the process (status 1) with one line that says what to do.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { env, environmentProblems } = await import('./env');
  const problems = environmentProblems();
  if (problems.length) {
    for (const problem of problems) console.error(`Invalid configuration: ${problem}`);
    process.exit(1);
  }
  const { startServer, startFailureLine } = await import('./platform/startup/start-server');
  try {
    await startServer();
  } catch (err) {
    // A server that cannot start must not stay up without serving: a supervisor restarts it only
    // once it has exited. One line that says what to do, no stack.
    console.error(startFailureLine(err));
    process.exit(1);
  }
  if (env().DELIVERY_ENGINE === 'inngest') {
    const { startInngestHandOver } = await import('./inngest/hand-over');
    await startInngestHandOver();
  }
  const { installShutdown } = await import('./platform/ops/shutdown');
  installShutdown();
  // `npm start` (scripts/start.mjs) serves the bot, agent and widget APIs through node:http, with
  // the pipelines and route implementations of this very build, handed over here.
  const [{ botApiHandler }, { adminApiHandler }, { agentApiHandler }, { widgetApiHandler }, { exposeNodeEntries }] = await Promise.all([
    import('./app/api/v1/_routers'),
    import('./app/api/admin/_routers'),
    import('./app/api/agent/_routers'),
    import('./app/api/widget/_routers'),
    import('./platform/http/node-entry'),
  ]);
  exposeNodeEntries(
    [
      { prefix: '/api/v1/', core: botApiHandler.core, owns: botApiHandler.owns, served: true },
      { prefix: '/api/admin/', core: adminApiHandler.core, owns: adminApiHandler.owns, served: false },
      { prefix: '/api/agent/', core: agentApiHandler.core, owns: agentApiHandler.owns, served: true },
      { prefix: '/api/widget/', core: widgetApiHandler.core, owns: widgetApiHandler.owns, served: true },
    ],
    { headersTimeoutMs: env().HEADERS_TIMEOUT_MS, bodyTimeoutMs: env().BODY_TIMEOUT_MS, streamMs: env().REPLY_STREAM_MAX_SECONDS * 1000 },
  );
}
