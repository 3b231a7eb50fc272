import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The customer's chat page (/chat/<app id>): components/widget/chat.html, plain HTML with one
 * script and one stylesheet of this origin (public/widget/), nothing inline, so its policy can be
 * strict. The route adds the asset it found.
 */

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The page's Content-Security-Policy: scripts, styles and calls to this origin only; images from
 * any http(s) address (attachments sent to the customer are shown inline; an image cannot run
 * code); framed only by the asset's allowed origins.
 */
export function widgetPageCsp(allowedOrigins: string[], { https }: { https: boolean }): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    'img-src https: http: data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${allowedOrigins.length ? allowedOrigins.join(' ') : "'none'"}`,
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

const pages = new Map<string, string>();
function page(name: 'chat.html' | 'missing.html' | 'unavailable.html'): string {
  let html = pages.get(name);
  if (html === undefined) {
    // Comments are for its readers (and the linter), not sent.
    html = readFileSync(path.join(process.cwd(), 'components/widget', name), 'utf8').replace(/[ \t]*<!--[\s\S]*?-->\n/g, '');
    pages.set(name, html);
  }
  return html;
}

/** The page with its slots filled: `{{title}}` (the asset's name, escaped) and `{{app_id}}`. */
export function widgetPageHtml({ appId, name }: { appId: number; name: string }): string {
  const slots: Record<string, string> = { title: escapeHtml(name), app_id: String(appId) };
  return page('chat.html').replace(/\{\{(title|app_id)\}\}/g, (_, slot: string) => slots[slot]);
}

export function widgetMissingHtml(): string {
  return page('missing.html');
}

/** The page while the database cannot be reached: it says so and reloads itself (a meta refresh, no script). */
export function widgetUnavailableHtml(): string {
  return page('unavailable.html');
}
