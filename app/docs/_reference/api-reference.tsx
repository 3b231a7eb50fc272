'use client';

import { useEffect, useRef, useState } from 'react';

/** The renderer: Scalar's API reference (standalone build, served by this app, no CDN). */
const SCALAR_SCRIPT = '/docs/assets/scalar.js';

type ScalarApp = { destroy?: () => void; app?: { unmount?: () => void } };
type ScalarGlobal = { createApiReference: (target: HTMLElement, config: Record<string, unknown>) => ScalarApp };

let loading: Promise<ScalarGlobal> | null = null;

/**
 * Held to WCAG 2.1 AA like the rest of the site (e2e/admin/docs.spec.ts runs axe on both pages):
 * the default light theme's grey text, method colours and syntax colours are darkened to a 4.5:1
 * contrast, and code and endpoint lists wrap or grow instead of scrolling inside boxes that a
 * keyboard cannot reach.
 */
const ACCESSIBLE_CSS = `
.light-mode, .light-mode .scalar-app {
  --scalar-color-2: #595959;
  --scalar-color-3: #5e5e5e;
  --scalar-color-accent: #0062a8;
  --scalar-color-green: #00744a;
  --scalar-color-red: #b3131b;
  --scalar-color-yellow: #7a5200;
  --scalar-color-blue: #0062a8;
  --scalar-color-orange: #9c3d00;
  --scalar-color-purple: #6b2bb5;
}
.scalar-app pre, .scalar-app pre code, .scalar-app pre code * {
  white-space: pre-wrap !important;
  word-break: break-word !important;
  overflow-wrap: anywhere !important;
  text-wrap: wrap !important;
}
.scalar-app pre {
  width: auto !important;
}
.scalar-app .endpoints, .scalar-app .scalar-card-content:has(> .endpoints) {
  overflow: visible !important;
  max-height: none !important;
}
`;

/** Scalar's copy buttons on code blocks carry only an icon: give them a name (WCAG 4.1.2). */
function nameCopyButtons(root: HTMLElement) {
  for (const button of root.querySelectorAll('button.scalar-code-copy:not([aria-label])')) button.setAttribute('aria-label', 'Copy code');
}

/** Loads the script once; a script added by this (nonce-allowed) bundle is allowed by 'strict-dynamic'. */
function loadScalar(): Promise<ScalarGlobal> {
  const existing = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCALAR_SCRIPT;
    script.onload = () => resolve((window as unknown as { Scalar: ScalarGlobal }).Scalar);
    script.onerror = () => reject(new Error('the API reference renderer did not load'));
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * One OpenAPI document rendered by Scalar. Everything it could fetch from elsewhere is off: fonts
 * are the system's, no telemetry, no request proxy, no hosted client, AI agent or MCP links.
 */
export function ApiReference({ url, title }: { url: string; title: string }) {
  const target = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let app: ScalarApp | undefined;
    let cancelled = false;
    const root = target.current;
    const observer = new MutationObserver(() => root && nameCopyButtons(root));
    if (root) observer.observe(root, { childList: true, subtree: true });
    loadScalar()
      .then((scalar) => {
        if (cancelled || !target.current) return;
        app = scalar.createApiReference(target.current, {
          url,
          title,
          baseServerURL: window.location.origin,
          // The document's server defaults to http://localhost:3000; the samples a reader copies
          // from this page use the origin it was served from (PORT, host and scheme included).
          servers: [{ url: window.location.origin, description: 'This service' }],
          withDefaultFonts: false,
          telemetry: false,
          hideClientButton: true,
          showDeveloperTools: 'never',
          hideDarkModeToggle: true,
          forceDarkModeState: 'light',
          documentDownloadType: 'json',
          defaultOpenFirstTag: true,
          orderRequiredPropertiesFirst: true,
          setPageTitle: false,
          agent: { disabled: true },
          mcp: { disabled: true },
          customCss: ACCESSIBLE_CSS,
        });
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      observer.disconnect();
      app?.destroy?.();
    };
  }, [url, title]);
  return (
    <main id="content" aria-label={title}>
      {failed ? (
        <p>
          The reference could not be drawn here. The document itself is at <a href={url}>{url}</a>.
        </p>
      ) : (
        <div ref={target} />
      )}
    </main>
  );
}
