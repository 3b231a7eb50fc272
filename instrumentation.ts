// Next.js calls this once when the server starts: check the configuration (a bad variable stops the
// process at once, one line per problem), open and migrate the database, create the first account
// if there is none, start webhook delivery (and the Inngest hand-over when it is the engine), and
// take over SIGTERM for a graceful stop, all before the first request arrives. A failure to start
// exits the process (status 1) with one line that says what to do.
export async function register() {
  // Only under Node.js: with the check around the import, the Edge compilation drops the module.
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { registerNode } = await import('./instrumentation-node');
    await registerNode();
  }
}
