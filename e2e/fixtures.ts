import { type APIRequestContext, type APIResponse, expect, type Request } from '@playwright/test';
import { buildOpenApiDocument } from '@/platform/openapi/build-document';
import { DocumentValidator } from '../test/contract/document-validator';
import { test as base } from './servers';

/**
 * `test` for every spec: each API call a spec makes through `request`, and each call the admin pages
 * make from the browser, is checked against the OpenAPI documents (the same validator the contract
 * tests use). A spec fails when an answer breaks the document, or when the service refuses with a
 * schema code a request the document allows. The suite's own traffic is the test data.
 */

const validator = new DocumentValidator(buildOpenApiDocument());
/** Served beside the APIs, not part of either document. */
const OUTSIDE = /^\/api\/(health|metrics|inngest)|openapi(-admin)?\.json$/;

type Sent = { method: string; url: string; headers: Record<string, string>; body: unknown };

function verdictOf(sent: Sent, status: number, responseBody: unknown): string[] {
  if (responseBody === UNAVAILABLE) return [];
  const url = new URL(sent.url, 'http://localhost');
  if (!url.pathname.startsWith('/api/') || OUTSIDE.test(url.pathname)) return [];
  const verdict = validator.check({ ...sent, url: url.pathname + url.search, status, responseBody });
  if (!verdict.operationId) return [];
  return verdict.violations.map((v) => `${sent.method} ${url.pathname}${url.search} → ${status}: ${v}`);
}

/** Stands for a body the browser no longer has (the page navigated away, e.g. after signing out). */
const UNAVAILABLE = Symbol('body unavailable');

async function bodyOf(response: { text(): Promise<string> }): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return UNAVAILABLE;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Options = { headers?: Record<string, string>; data?: unknown; params?: Record<string, string | number | boolean> };

/** An APIRequestContext whose answers are checked as they come back. */
function checked(request: APIRequestContext, violations: string[]): APIRequestContext {
  const wrap =
    (method: string, call: (url: string, options?: Options) => Promise<APIResponse>) => async (url: string, options?: Options) => {
      const response = await call(url, options);
      const query = options?.params ? `?${new URLSearchParams(Object.entries(options.params).map(([k, v]) => [k, String(v)]))}` : '';
      const sent = { method, url: url + query, headers: options?.headers ?? {}, body: options?.data };
      violations.push(...verdictOf(sent, response.status(), await bodyOf(response)));
      return response;
    };
  return new Proxy(request, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      const method = { get: 'GET', post: 'POST', patch: 'PATCH', put: 'PUT', delete: 'DELETE' }[prop];
      if (!method) return value.bind(target);
      return wrap(method, value.bind(target));
    },
  });
}

async function checkBrowserCall(request: Request): Promise<string[]> {
  // The page may be gone by now (a navigation or the test's end: "Target page, context or browser
  // has been closed"); a call whose answer cannot be read any more is not checked.
  const response = await request.response().catch(() => null);
  if (!response || request.resourceType() !== 'fetch') return [];
  let body: unknown;
  try {
    body = request.postDataJSON() ?? undefined;
  } catch {
    body = request.postData() ?? undefined;
  }
  // allHeaders() asks the browser, which may have let the request go by then (a navigation or the
  // test's end: "Target page, context or browser has been closed"); the headers Playwright already
  // holds are enough for the document's checks.
  const headers = await request.allHeaders().catch(() => request.headers());
  const sent = { method: request.method(), url: request.url(), headers, body };
  return verdictOf(sent, response.status(), await bodyOf(response));
}

export const test = base.extend<{ documentChecks: string[] }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from its first argument.
  documentChecks: async ({}, use) => {
    const violations: string[] = [];
    await use(violations);
    expect(violations, 'API traffic that breaks the OpenAPI document').toEqual([]);
  },
  request: async ({ request, documentChecks }, use) => {
    await use(checked(request, documentChecks));
  },
  page: async ({ page, documentChecks }, use) => {
    const pending: Promise<void>[] = [];
    page.on('requestfinished', (request) => {
      pending.push(checkBrowserCall(request).then((found) => void documentChecks.push(...found)));
    });
    await use(page);
    await Promise.all(pending);
  },
});

export { expect };
