/**
 * The customer's chat page (/chat/<app id>): plain HTML, one script and one stylesheet of this
 * origin (public/widget/), nothing inline, so its policy can be strict. Pure: the route adds the
 * asset it found.
 */

export function escapeHtml(s: string): string {
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

export function widgetPageHtml({ appId, name }: { appId: number; name: string }): string {
  const title = escapeHtml(name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat: ${title}</title>
<link rel="stylesheet" href="/widget/chat.css">
<script src="/widget/chat.js" defer></script>
</head>
<body data-app="${appId}">
<main class="chat" aria-labelledby="chat-title">
  <header class="bar">
    <h1 id="chat-title">${title}</h1>
    <button type="button" id="close" class="close" hidden>Close chat</button>
  </header>
  <div id="log" class="log" role="log" aria-live="polite" aria-relevant="additions" aria-label="Conversation" tabindex="0"></div>
  <p id="status" class="status" role="status"></p>
  <div id="closed" class="closed" hidden>
    <p>This chat has ended.</p>
    <button type="button" id="restart">Start a new chat</button>
  </div>
  <form id="composer" class="composer" novalidate>
    <p id="name-row" class="name-row" hidden>
      <label for="name">Your name (optional)</label>
      <input id="name" name="name" autocomplete="name" maxlength="100">
    </p>
    <label for="text" class="sr-only">Message</label>
    <div class="row">
      <textarea id="text" name="text" rows="2" maxlength="2000" placeholder="Type your message" aria-describedby="error" required></textarea>
      <button type="submit" id="send">Send</button>
    </div>
    <p id="error" class="error" role="alert"></p>
  </form>
</main>
<noscript><p>This chat needs JavaScript.</p></noscript>
</body>
</html>
`;
}

export function widgetMissingHtml(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Chat not found</title>
<link rel="stylesheet" href="/widget/chat.css"></head>
<body><main class="chat"><h1>Chat not found</h1><p>There is no chat at this address.</p></main></body>
</html>
`;
}
