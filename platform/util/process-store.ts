/**
 * What must exist once per process: the database pool, the delivery engine, timers, caches, the
 * realtime listener. Next bundles a module once for the route handlers, again for the
 * instrumentation hook and for the node:http entry, so a module-level variable would exist once per
 * bundle; state kept on `globalThis` under a `__va…` name is shared by every copy. `T` names the
 * properties a module keeps there (optional ones until first set).
 */
export function processStore<T extends object>(): T {
  return globalThis as unknown as T;
}
