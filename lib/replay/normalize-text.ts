/**
 * A bot's text with what changes from one run to the next taken out: runs of whitespace become one
 * space (ends trimmed), and ids, dates, times and numbers become placeholders, so "Ticket 4711 opened
 * at 10:02" and "Ticket  4712 opened at 10:05" compare equal. Order matters: UUIDs and dates hold
 * digits that the number rule would otherwise split.
 */
export function normalizeText(value: string): string {
  return value
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, '<date>')
    .replace(/\b\d{1,2}:\d{2}(?::\d{2})?\b/g, '<time>')
    .replace(/\b[A-Za-z]{2,8}[_-][A-Za-z0-9]*\d[A-Za-z0-9_-]*\b/g, '<id>')
    .replace(/[+-]?\d+(?:[.,]\d+)*/g, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}
