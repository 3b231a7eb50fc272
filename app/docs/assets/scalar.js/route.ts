import fs from 'node:fs/promises';
import path from 'node:path';

// Scalar's standalone build, served from node_modules by this app: the reference pages load no
// script from another origin (the page CSP allows none, and the machine may have no internet).
const FILE = path.join(process.cwd(), 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');

let cached: Promise<Buffer> | null = null;

export async function GET() {
  cached ??= fs.readFile(FILE);
  return new Response(new Uint8Array(await cached), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
  });
}
