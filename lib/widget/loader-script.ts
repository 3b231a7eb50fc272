/**
 * The embed script (/widget.js?app=<id>) for one app: its allowed origins are written into it, so
 * on any other origin it stops before touching the page. On an allowed one it adds a launcher
 * button ("Open chat") and, on first use, the chat page in an iframe. Escape, or the page's own
 * Close button, closes the panel and puts focus back on the launcher. Styles are set through the
 * DOM (no inline style attribute), so a host page with a strict policy can still run it.
 */
export function loaderScript({ base, appId, origins, name }: { base: string; appId: number; origins: string[]; name: string }): string {
  const cfg = JSON.stringify({ base, appId, origins, name }).replace(/</g, '\\u003c');
  return `(function (cfg) {
  'use strict';
  if (cfg.origins.indexOf(window.location.origin) === -1) return;
  var key = '__vaChatWidget' + cfg.appId;
  if (window[key]) return;
  window[key] = true;
  var reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  function css(el, styles) { for (var k in styles) el.style[k] = styles[k]; return el; }
  function start() {
    var launcher = document.createElement('button');
    launcher.type = 'button';
    launcher.textContent = 'Open chat';
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-controls', 'va-chat-panel-' + cfg.appId);
    launcher.setAttribute('data-va-chat-launcher', String(cfg.appId));
    css(launcher, { position: 'fixed', right: '16px', bottom: '16px', zIndex: '2147483000', minWidth: '44px', minHeight: '44px',
      padding: '10px 18px', border: '2px solid #ffffff', borderRadius: '24px', background: '#0b5cad', color: '#ffffff',
      font: '600 16px/1.2 system-ui, sans-serif', cursor: 'pointer', boxShadow: '0 2px 8px rgba(0,0,0,.3)' });
    var panel = document.createElement('div');
    panel.id = 'va-chat-panel-' + cfg.appId;
    panel.hidden = true;
    css(panel, { position: 'fixed', right: '16px', bottom: '76px', zIndex: '2147483000', width: 'min(400px, calc(100vw - 32px))',
      height: 'min(600px, calc(100vh - 100px))', border: '1px solid #555', borderRadius: '8px', overflow: 'hidden',
      background: '#ffffff', boxShadow: '0 4px 16px rgba(0,0,0,.3)', transition: reduced ? 'none' : 'opacity .15s ease-out' });
    var frame = null;
    function open() {
      if (!frame) {
        frame = document.createElement('iframe');
        frame.src = cfg.base + '/chat/' + cfg.appId + '?embed=1';
        frame.title = 'Chat with ' + cfg.name;
        css(frame, { width: '100%', height: '100%', border: '0', display: 'block' });
        panel.appendChild(frame);
        frame.addEventListener('load', function () { focusChat(); });
      }
      panel.hidden = false;
      launcher.setAttribute('aria-expanded', 'true');
      launcher.textContent = 'Close chat';
      focusChat();
    }
    function focusChat() {
      if (!frame || panel.hidden) return;
      frame.focus();
      if (frame.contentWindow) frame.contentWindow.postMessage({ type: 'va-chat:focus' }, cfg.base);
    }
    function close() {
      panel.hidden = true;
      launcher.setAttribute('aria-expanded', 'false');
      launcher.textContent = 'Open chat';
      launcher.focus();
    }
    launcher.addEventListener('click', function () { if (panel.hidden) open(); else close(); });
    document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !panel.hidden) close(); });
    window.addEventListener('message', function (e) {
      if (!frame || e.source !== frame.contentWindow || e.origin !== cfg.base) return;
      if (e.data && e.data.type === 'va-chat:close') close();
    });
    document.body.appendChild(panel);
    document.body.appendChild(launcher);
  }
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
})(${cfg});
`;
}
