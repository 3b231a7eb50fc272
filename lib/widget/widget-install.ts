import type { PublicBase } from './public-base';

/**
 * How a livechat asset's chat widget is installed: the full-page chat (also what the embed script
 * frames) and the one `<script>` tag a website adds, at the service's public origin, and where that
 * origin came from (PUBLIC_URL, or the address the request came to).
 * Pure: the console and the admin API both show it.
 */
export function widgetInstall(
  base: PublicBase,
  appId: number,
): { url: string; embed_html: string; origin: string; origin_from: PublicBase['from'] } {
  const origin = base.origin.replace(/\/+$/, '');
  return {
    url: `${origin}/chat/${appId}`,
    embed_html: `<script src="${origin}/widget.js?app=${appId}" async></script>`,
    origin,
    origin_from: base.from,
  };
}
