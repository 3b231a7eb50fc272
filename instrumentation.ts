// Next.js calls this once when the server starts: open and migrate the database, create the first
// account if there is none, and start webhook delivery, before the first request arrives.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServer } = await import('./lib/startup/start-server');
  await startServer();
  // `npm start` (scripts/start.mjs) serves the bot API through node:http, with the pipelines and
  // route implementations of this very build, handed over here.
  const [{ botApiHandler }, { adminApiHandler }, { exposeNodeEntries }] = await Promise.all([
    import('./app/api/v1/_routers'),
    import('./app/api/admin/_routers'),
    import('./lib/http/node-entry'),
  ]);
  exposeNodeEntries([
    { prefix: '/api/v1/', core: botApiHandler.core, owns: botApiHandler.owns, served: true },
    { prefix: '/api/admin/', core: adminApiHandler.core, owns: adminApiHandler.owns, served: false },
  ]);
}
