// Next.js calls this once when the server starts: open and migrate the database, create the first
// account if there is none, and start webhook delivery, before the first request arrives.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServer } = await import('./lib/startup/start-server');
  await startServer();
}
