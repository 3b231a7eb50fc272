import { readFileSync } from 'node:fs';
import path from 'node:path';

let compiled: string | undefined;

/**
 * The embed script (/widget.js?app=<id>) for one app: the compiled components/widget/loader.ts
 * (dist/widget/loader.js, made by the build) with the app's configuration in place of its one
 * free name, VA_CHAT_CONFIG (its type there, LoaderConfig, is this parameter's). `source`: the
 * compiled loader to fill instead of the build's file (a test builds it in memory).
 */
export function loaderScript(cfg: { base: string; appId: number; origins: string[]; name: string }, source?: string): string {
  const text = source ?? builtLoader();
  const json = JSON.stringify({ base: cfg.base, appId: cfg.appId, origins: cfg.origins, name: cfg.name }).replace(/</g, '\\u003c');
  return text.replace('VA_CHAT_CONFIG', () => json);
}

/** dist/widget/loader.js, read once. */
function builtLoader(): string {
  compiled ??= readFileSync(path.join(process.cwd(), 'dist/widget/loader.js'), 'utf8');
  return compiled;
}
