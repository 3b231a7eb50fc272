import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';

export type RouteEntry = { method: string; path: string; pattern: RegExp; route: AppRoute };

export function routeTable(router: AppRouter): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (r: AppRouter) => {
    for (const value of Object.values(r)) {
      if (isAppRoute(value)) {
        const pattern = new RegExp(`^${value.path.replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
        out.push({ method: value.method, path: value.path, pattern, route: value });
      } else {
        walk(value as AppRouter);
      }
    }
  };
  walk(router);
  return out;
}

export type Match = { kind: 'found'; entry: RouteEntry } | { kind: 'wrong-method'; allow: string[] } | { kind: 'none' };

export function matchRoute(table: RouteEntry[], method: string, pathname: string): Match {
  const allow: string[] = [];
  for (const entry of table) {
    if (!entry.pattern.test(pathname)) continue;
    if (entry.method === method) return { kind: 'found', entry };
    allow.push(entry.method);
  }
  return allow.length ? { kind: 'wrong-method', allow } : { kind: 'none' };
}

/** Whether a route takes its body unread, as an event stream (`metadata: { bodyStream: true }` in the contract). */
export const takesBodyStream = (route: AppRoute): boolean => (route.metadata as { bodyStream?: boolean } | undefined)?.bodyStream === true;
