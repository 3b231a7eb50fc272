// Compiles the chat widget's browser code (components/widget/, TypeScript) with esbuild: the page
// script to public/widget/chat.js (served as a static file, beside chat.css) and the embed script
// to dist/widget/loader.js (served by app/widget.js/route.ts with one app's configuration written
// in). Run by `npm run build`, `npm run dev` and `npm start` before Next builds; both outputs are
// build products, not committed. The types are checked by `npm run typecheck`, not here.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Browsers the widget supports: the page and the embed script run on customers' machines. */
const TARGET: string[] = ['chrome100', 'firefox100', 'safari15', 'edge100'];
/**
 * The most each script may weigh gzipped, in bytes: every customer's browser downloads both. The
 * page script weighed 4,694 B and the embed script 1,198 B when the budget was set; a change that
 * passes it fails the build, and raising it is a decision to write down.
 */
export const WIDGET_BUDGET = { chatJs: 6_144, loaderJs: 1_536 } as const;

/** Builds both scripts; returns their compiled text. `outRoot` is where public/ and dist/ go. */
export async function buildWidget({ outRoot = ROOT, write = true } = {}): Promise<{ chatJs: string; loaderJs: string }> {
  const common: BuildOptions = {
    bundle: true,
    minify: true,
    format: 'iife',
    target: TARGET,
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  };
  const [chat, loader] = await Promise.all([
    build({ ...common, entryPoints: [path.join(ROOT, 'components/widget/chat.ts')] }),
    build({ ...common, entryPoints: [path.join(ROOT, 'components/widget/loader.ts')] }),
  ]);
  const chatJs = chat.outputFiles![0].text;
  const loaderJs = loader.outputFiles![0].text;
  // The route replaces this one free name with the app's configuration.
  if (loaderJs.split('VA_CHAT_CONFIG').length !== 2) throw new Error('the embed script must name VA_CHAT_CONFIG exactly once');
  for (const [name, text] of [
    ['chatJs', chatJs],
    ['loaderJs', loaderJs],
  ] as const) {
    const weight = gzippedBytes(text);
    if (weight > WIDGET_BUDGET[name])
      throw new Error(`widget ${name} weighs ${weight} B gzipped, over its budget of ${WIDGET_BUDGET[name]} B (scripts/build-widget.ts)`);
  }
  if (write) {
    mkdirSync(path.join(outRoot, 'public/widget'), { recursive: true });
    mkdirSync(path.join(outRoot, 'dist/widget'), { recursive: true });
    writeIfChanged(path.join(outRoot, 'public/widget/chat.js'), chatJs);
    writeIfChanged(path.join(outRoot, 'dist/widget/loader.js'), loaderJs);
  }
  return { chatJs, loaderJs };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { chatJs, loaderJs } = await buildWidget();
  console.log(
    `widget: public/widget/chat.js ${chatJs.length} B (${gzippedBytes(chatJs)} B gzipped, budget ${WIDGET_BUDGET.chatJs}), ` +
      `dist/widget/loader.js ${loaderJs.length} B (${gzippedBytes(loaderJs)} B gzipped, budget ${WIDGET_BUDGET.loaderJs})`,
  );
}

/** What a browser downloads when the script is served compressed. */
export function gzippedBytes(text: string): number {
  return gzipSync(text).length;
}

/**
 * Leaves a file that already holds `text` untouched: `npm start` rebuilds when a source is newer
 * than the last build (scripts/start.mjs), so the same output written again would look like a
 * change and make the next start rebuild for nothing.
 */
function writeIfChanged(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  writeFileSync(file, text);
}
