/**
 * The server's start on Node.js (instrumentation.ts calls it; see there for what it does). A module
 * of its own, imported only under the Node.js runtime, so the Edge compilation of the hook never
 * sees Node's APIs (process.exit) and the build has nothing to warn about.
 */
export async function registerNode(): Promise<void> {
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
