import { ZodError, type ZodIssue, type ZodTypeAny, z } from 'zod';

/**
 * Makes a refused body's zod issues say what to do. An unknown key that is close to a key the
 * object takes (`team_id` for `teamid`, `tag` for `tags`) becomes an issue on that key reading
 * "unknown key: did you mean `teamid`?", listed first; a field left out that zod reports as
 * "Invalid input" (a union) reads "Required". Everything else is kept as zod wrote it.
 */
export function explainBodyIssues(error: ZodError, schema: unknown, input: unknown): ZodError {
  if (!(schema instanceof z.ZodType)) return error;
  const suggested: ZodIssue[] = [];
  const rest: ZodIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = objectKeysAt(schema, issue.path);
      const unmatched: string[] = [];
      for (const key of issue.keys) {
        const near = known ? closestKey(key, known) : undefined;
        if (near) {
          suggested.push({ ...issue, path: [...issue.path, key], message: `unknown key: did you mean \`${near}\`?` });
        } else unmatched.push(key);
      }
      if (unmatched.length) rest.push({ ...issue, keys: unmatched, message: unknownKeysMessage(unmatched) });
    } else if (issue.code === 'invalid_union' && valueAt(input, issue.path) === undefined) {
      rest.push({ ...issue, message: 'Required' });
    } else rest.push(issue);
  }
  if (!suggested.length && rest.every((issue, i) => issue === error.issues[i])) return error;
  return new ZodError([...suggested, ...rest]);
}

function unknownKeysMessage(keys: string[]): string {
  return `Unrecognized key(s) in object: ${keys.map((k) => `'${k}'`).join(', ')}`;
}

function valueAt(input: unknown, path: ReadonlyArray<string | number>): unknown {
  let at = input;
  for (const p of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[p];
  }
  return at;
}

/** The keys of the object schema found at `path`, through optional, nullable, refined, array and union wrappers. */
function objectKeysAt(schema: ZodTypeAny, path: ReadonlyArray<string | number>): string[] | undefined {
  let candidates: ZodTypeAny[] = [schema];
  for (const step of path) {
    const next: ZodTypeAny[] = [];
    for (const c of candidates.flatMap(unwrap)) {
      if (c instanceof z.ZodObject && typeof step === 'string' && step in c.shape) next.push(c.shape[step]);
      else if (c instanceof z.ZodArray && typeof step === 'number') next.push(c.element);
      else if (c instanceof z.ZodRecord) next.push(c.valueSchema);
    }
    candidates = next;
  }
  const objects = candidates.flatMap(unwrap).filter((c): c is z.AnyZodObject => c instanceof z.ZodObject);
  return objects.length ? [...new Set(objects.flatMap((o) => Object.keys(o.shape)))] : undefined;
}

function unwrap(schema: ZodTypeAny): ZodTypeAny[] {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return unwrap(schema.unwrap());
  if (schema instanceof z.ZodDefault) return unwrap(schema._def.innerType);
  if (schema instanceof z.ZodEffects) return unwrap(schema.innerType());
  if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) {
    return (schema.options as ZodTypeAny[]).flatMap(unwrap);
  }
  return [schema];
}

/**
 * The known key the unknown one most likely meant: the same letters without `_`, `-` and case; a
 * known key of four letters or more with an ending added (`streaming`, `streamed` for `stream`);
 * or one edit away (two for keys of five letters or more).
 */
function closestKey(key: string, known: string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const same = known.find((k) => plain(k) === plain(key));
  if (same) return same;
  const inflected = known.find((k) => plain(k).length >= 4 && new RegExp(`^${plain(k)}(ing|ed|s|es)$`).test(plain(key)));
  if (inflected) return inflected;
  if (key.length < 3) return undefined;
  const most = key.length < 5 ? 1 : 2;
  let best: { key: string; distance: number } | undefined;
  for (const k of known) {
    const d = editDistance(plain(key), plain(k));
    if (d <= most && (!best || d < best.distance)) best = { key: k, distance: d };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
