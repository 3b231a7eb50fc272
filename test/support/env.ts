import { after, before } from 'node:test';
import { resetEnv } from '@/env';

/**
 * Call inside a suite: sets these environment variables before its tests and puts the previous
 * values back after them (deleting those that were unset), re-reading the validated env each time.
 */
export function useEnv(vars: Record<string, string>): void {
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(vars)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    resetEnv();
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
  });
}
