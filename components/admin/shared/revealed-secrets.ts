'use client';

import { useSyncExternalStore } from 'react';

/**
 * Secrets the server returned once (a new VA's API key and signing secret, or a rotated one),
 * kept in memory only, so they survive the move from the form to the VA's page but not a reload.
 */
export type Revealed = { apiKey?: string; signingSecret?: string };

const store = new Map<number, Revealed>();
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function reveal(vaId: number, secrets: Revealed): void {
  store.set(vaId, { ...store.get(vaId), ...secrets });
  emit();
}

export function forget(vaId: number): void {
  store.delete(vaId);
  emit();
}

export function useRevealed(vaId: number): Revealed | undefined {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => store.get(vaId),
    () => undefined,
  );
}
