// The embed script (/widget.js?app=<id>), compiled by scripts/build-widget.ts. The route serves it
// with one app's configuration in place of VA_CHAT_CONFIG (app/widget.js/route.ts): its allowed
// origins are written into it, so on any other origin it stops before touching the page. On an
// allowed one it adds a launcher button ("Open chat", "Hide chat" while open: the one control that shows and
// hides the panel) and, on first use, the chat page in an iframe. Escape hides the panel too and puts focus back on the
// launcher. Styles are set through the DOM (no inline style attribute), so a host page with a
// strict policy can still run it.

/** What the route writes into the script for one app. */
export type LoaderConfig = { base: string; appId: number; origins: string[]; name: string };

declare const VA_CHAT_CONFIG: LoaderConfig;

function css<T extends HTMLElement>(el: T, styles: Partial<CSSStyleDeclaration>): T {
  Object.assign(el.style, styles);
  return el;
}

function install(cfg: LoaderConfig): void {
  if (cfg.origins.indexOf(window.location.origin) === -1) {
    // The site owner's one clue: nothing appears, so the console says why and where to fix it.
    console.warn(
      `VA Chat widget: this page's origin ${window.location.origin} is not among the allowed origins of chat widget ${cfg.appId} (${cfg.origins.join(', ') || 'none'}), so no chat button is shown. Add it under "Allowed websites" in the asset's chat widget settings (admin pages, Channel assets).`,
    );
    return;
  }
  const key = `__vaChatWidget${cfg.appId}`;
  const flags = window as unknown as Record<string, boolean>;
  if (flags[key]) return;
  flags[key] = true;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

  function start(): void {
    const launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.textContent = 'Open chat';
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-controls', `va-chat-panel-${cfg.appId}`);
    launcher.setAttribute('data-va-chat-launcher', String(cfg.appId));
    css(launcher, {
      position: 'fixed',
      right: '16px',
      bottom: '16px',
      zIndex: '2147483000',
      minWidth: '44px',
      minHeight: '44px',
      padding: '10px 18px',
      border: '2px solid #ffffff',
      borderRadius: '24px',
      background: '#0b5cad',
      color: '#ffffff',
      font: '600 16px/1.2 system-ui, sans-serif',
      cursor: 'pointer',
      boxShadow: '0 2px 8px rgba(0,0,0,.3)',
    });
    const panel = document.createElement('div');
    panel.id = `va-chat-panel-${cfg.appId}`;
    panel.hidden = true;
    css(panel, {
      position: 'fixed',
      right: '16px',
      bottom: '76px',
      zIndex: '2147483000',
      width: 'min(400px, calc(100vw - 32px))',
      height: 'min(600px, calc(100vh - 100px))',
      border: '1px solid #555',
      borderRadius: '8px',
      overflow: 'hidden',
      background: '#ffffff',
      boxShadow: '0 4px 16px rgba(0,0,0,.3)',
      transition: reduced ? 'none' : 'opacity .15s ease-out',
    });
    let frame: HTMLIFrameElement | null = null;
    // Until the chat page has loaded, the frame holds about:blank (this page's origin): a message
    // addressed to the service's origin then is refused with a warning in the console.
    let loaded = false;
    function open(): void {
      if (!frame) {
        frame = document.createElement('iframe');
        frame.src = `${cfg.base}/chat/${cfg.appId}?embed=1`;
        frame.title = `Chat with ${cfg.name}`;
        css(frame, { width: '100%', height: '100%', border: '0', display: 'block' });
        panel.appendChild(frame);
        frame.addEventListener('load', () => {
          loaded = true;
          focusChat();
        });
      }
      panel.hidden = false;
      launcher.setAttribute('aria-expanded', 'true');
      // It hides the panel; the conversation stays open.
      launcher.textContent = 'Hide chat';
      focusChat();
    }
    function focusChat(): void {
      if (!frame || panel.hidden) return;
      frame.focus();
      if (loaded) frame.contentWindow?.postMessage({ type: 'va-chat:focus' }, cfg.base);
    }
    function close(): void {
      panel.hidden = true;
      launcher.setAttribute('aria-expanded', 'false');
      launcher.textContent = 'Open chat';
      launcher.focus();
    }
    launcher.addEventListener('click', () => {
      if (panel.hidden) open();
      else close();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !panel.hidden) close();
    });
    window.addEventListener('message', (e) => {
      if (!frame || e.source !== frame.contentWindow || e.origin !== cfg.base) return;
      if (e.data && e.data.type === 'va-chat:close') close();
    });
    document.body.appendChild(panel);
    document.body.appendChild(launcher);
  }

  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
}

install(VA_CHAT_CONFIG);
