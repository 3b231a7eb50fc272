'use client';

import { type ApiFetcherArgs, type AppRouter, isAppRouteOtherResponse, tsRestFetchApi } from '@ts-rest/core';
import { initTsrReactQuery } from '@ts-rest/react-query/v5';

/**
 * A surface's typed browser client: react-query hooks generated from its contract (the console's
 * and the workspace's). Same-origin requests carry the session cookie; the APIs refuse cross-site
 * ones.
 */
export function contractClient<T extends AppRouter>(contract: T) {
  return initTsrReactQuery(contract, {
    baseUrl: '',
    baseHeaders: {},
    credentials: 'same-origin',
    // A body-less DELETE or POST from a browser carries no Content-Length, which the API's size and
    // type check reads as a body without a Content-Type (2009); an empty body makes it send `0`.
    api: (args: ApiFetcherArgs) =>
      isJsonLines(args) ? fetchJsonLines(args) : tsRestFetchApi(needsEmptyBody(args) ? { ...args, body: '' } : args),
  });
}

function needsEmptyBody(args: ApiFetcherArgs): boolean {
  return args.body == null && args.method !== 'GET' && args.method !== 'HEAD';
}

/** A route whose success is JSON Lines (a recording export, a run's results): ts-rest would parse it as one JSON value. */
function isJsonLines(args: ApiFetcherArgs): boolean {
  const ok = args.route.responses[200];
  return isAppRouteOtherResponse(ok) && ok.contentType === 'application/x-ndjson';
}

/** Its success comes back as the text of its lines (the typed body says stream: read it as a string); a refusal as its envelope. */
async function fetchJsonLines(args: ApiFetcherArgs) {
  const res = await fetch(args.path, { method: args.method, headers: args.headers, credentials: 'same-origin' });
  const text = await res.text();
  if (res.ok) return { status: res.status, body: text, headers: res.headers };
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}
