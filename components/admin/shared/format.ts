const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A date and time typed in the console's own format (`27 Nov 2026, 07:40:00`, seconds optional,
 * the browser's time zone), or ISO (`2026-11-27T07:40`); null when it is neither or no such day.
 */
export function parseDateTime(text: string): Date | null {
  const t = text.trim();
  const gb = /^(\d{1,2}) ([a-z]{3})[a-z]* (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?$/i.exec(t);
  const iso = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2}))?$/i.exec(t);
  let parts: number[];
  if (gb) {
    const month = MONTHS.indexOf(gb[2].toLowerCase());
    if (month < 0) return null;
    parts = [Number(gb[3]), month, Number(gb[1]), Number(gb[4]), Number(gb[5]), Number(gb[6] ?? 0)];
  } else if (iso) {
    parts = [Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]), Number(iso[4]), Number(iso[5]), Number(iso[6] ?? 0)];
  } else return null;
  const [y, mo, d, h, mi, s] = parts;
  const date = new Date(y, mo, d, h, mi, s);
  // 31 Feb or 25:00 roll over into another day: refuse them rather than guess.
  const same =
    date.getFullYear() === y && date.getMonth() === mo && date.getDate() === d && date.getHours() === h && date.getMinutes() === mi;
  return same && s < 60 ? date : null;
}

export function formatTime(iso: string): string {
  return time.format(new Date(iso));
}

export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  const pct = rate * 100;
  return `${pct === 100 || pct === 0 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** "3 min ago" style, for recent activity. */
export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}
