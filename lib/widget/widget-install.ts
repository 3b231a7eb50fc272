/**
 * How a livechat asset's chat widget is installed: the full-page chat (also what the embed script
 * frames) and the one `<script>` tag a website adds. `base` is the service's public origin.
 * Pure: the console and the admin API both show it.
 */
export function widgetInstall(base: string, appId: number): { url: string; embed_html: string } {
  const origin = base.replace(/\/+$/, '');
  return {
    url: `${origin}/chat/${appId}`,
    embed_html: `<script src="${origin}/widget.js?app=${appId}" async></script>`,
  };
}
