// Any NUL or surrogate at all: a quick test before the exact replacement, which most text skips.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is looked for.
const UNSTORABLE_CHAR = /[\u0000\uD800-\uDFFF]/;

/**
 * Text as PostgreSQL can store it: NUL and lone surrogates (which no text or jsonb column
 * accepts) become U+FFFD. For records of refused requests, whose path segments, field names or
 * header values may hold anything a client sent.
 */
export function storableText(text: string): string {
  if (!UNSTORABLE_CHAR.test(text)) return text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what must be replaced.
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
