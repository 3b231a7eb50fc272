import { processStore } from '@/platform/util/process-store';

const store = processStore<{ __vaDraining?: boolean }>();

/** Marks the process as shutting down: readiness fails so load balancers stop sending traffic. */
export function startDraining(): void {
  store.__vaDraining = true;
}

export function isDraining(): boolean {
  return store.__vaDraining === true;
}
