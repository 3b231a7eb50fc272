import { rmSync } from 'node:fs';
import net from 'node:net';
import { type ProductionServer, startProductionServer, stopProductionServer, waitForServer } from '@/test/support/production-server';
import { E2E_ADMIN } from '../playwright.config';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A server of one test's own (`npm start` of the same build, its own embedded database and port,
 * the suite's administrator), which the test may stop and start again on the same data: what the
 * pages do when the service goes away and comes back. `dispose` stops it and deletes its data.
 */
export async function ownServer() {
  const port = await freePort();
  const dataDir = `.data/e2e-own-${port}`;
  const serverEnv = {
    DATA_DIR: `${dataDir}/pglite`,
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    ADMIN_LOGIN_ATTEMPTS_PER_MINUTE: '100',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
  };
  let server: ProductionServer | null = null;
  const start = async () => {
    server = startProductionServer(port, serverEnv);
    await waitForServer(server, 240_000, '/api/health/ready');
  };
  const stop = async () => {
    if (server) await stopProductionServer(server);
    server = null;
  };
  await start();
  return {
    base: `http://127.0.0.1:${port}`,
    start,
    stop,
    dispose: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
