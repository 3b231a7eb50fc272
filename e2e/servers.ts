import { test as base } from '@playwright/test';

/** The first e2e server's port; the others follow it (playwright.config.ts starts them). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * How many servers (and workers) the suite runs: each worker drives a server of its own on its own
 * embedded database, so specs never share a server's data or its limits with a spec running beside
 * them. One by default: E2E_WORKERS=2 ran the suite in 9.8 minutes against 13 on one on the Intel
 * machine, but in 16.4 on the AMD one, where the contention slowed every spec. With Debian's
 * headless shell in place of the full Chromium, two won on the AMD one too (483 s against 590 s),
 * and CI runs two.
 */
export const E2E_SERVERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));

/** The address of the server that worker `parallelIndex` drives. */
export const serverUrl = (parallelIndex: number) => `http://127.0.0.1:${E2E_PORT + (parallelIndex % E2E_SERVERS)}`;

/**
 * Playwright's `test` with `baseURL` set to the running worker's own server: every spec imports
 * `test` from here (or from fixtures.ts, built on it), never from '@playwright/test' itself.
 */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from its first argument.
  baseURL: async ({}, use, testInfo) => {
    await use(serverUrl(testInfo.parallelIndex));
  },
});

export { expect } from '@playwright/test';
