/**
 * GET /favicon.ico: the icon browsers ask every page for (a 404 otherwise, in every console). A
 * speech bubble drawn as SVG, which browsers take at this address whatever its extension.
 */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><path d="M8 9h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z" fill="#fff"/></svg>`;

export function GET(): Response {
  return new Response(ICON, {
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
  });
}
