import type { ChildProcess } from 'node:child_process';

export { freePort } from '@/test/support/private-cluster';

/** Resolves once `url` answers 2xx; throws if `child` exits first or `timeoutMs` passes. */
export async function waitReady(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode} before it was ready`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready in ${timeoutMs / 1000} s`);
}
