import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A TCP port free on 127.0.0.1 at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A PostgreSQL tool's command line, run as the `postgres` user when this process is root (initdb refuses root). */
function pgArgv(tool: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args];
}

/** Why a private cluster cannot be made here, or null when it can. */
export function privateClusterUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} not found`;
  }
  if (process.getuid?.() === 0 && spawnSync('id', ['postgres']).status !== 0) return 'no postgres user to run initdb as';
  return null;
}

export type PrivateCluster = {
  url: string;
  port: number;
  /** The server's own log file. */
  logFile: string;
  start(): void;
  /** A fast shutdown (`pg_ctl stop -m fast`): sessions are ended, as in a restart or a failover. */
  stop(): void;
  /** The same, without blocking the event loop (load and scrapers keep running meanwhile). */
  startAsync(): Promise<void>;
  stopAsync(): Promise<void>;
  /** Stops it at once and deletes its files. */
  remove(): void;
};

/**
 * A PostgreSQL cluster of a test's or a drill's own (initdb in a temporary directory, trust
 * authentication, listening on 127.0.0.1:`port`), started; one that can be stopped and started
 * without touching the machine's PostgreSQL.
 */
export function createPrivateCluster(port: number): PrivateCluster {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'va-pg-'));
  if (process.getuid?.() === 0) spawnSync('chown', ['postgres', dir]);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'log');
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = pgArgv(tool, args);
    const r = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stdout ?? ''}${r.stderr ?? ''}`);
  };
  const runAsync = async (tool: string, args: string[]) => {
    const [cmd, argv] = pgArgv(tool, args);
    await execFileAsync(cmd, argv);
  };
  const startArgs = ['-D', data, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-w', '-t', '60', '-l', logFile, 'start'];
  const stopArgs = ['-D', data, '-m', 'fast', '-w', 'stop'];
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  run('pg_ctl', startArgs);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    logFile,
    start: () => run('pg_ctl', startArgs),
    stop: () => run('pg_ctl', stopArgs),
    startAsync: () => runAsync('pg_ctl', startArgs),
    stopAsync: () => runAsync('pg_ctl', stopArgs),
    remove: () => {
      const [cmd, argv] = pgArgv('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      spawnSync(cmd, argv);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
