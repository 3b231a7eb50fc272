'use client';

import { useState } from 'react';

/** Where a cursor-paged list is: the cursor of the page shown (none for the first) and its number. */
export type CursorPages = ReturnType<typeof useCursorPages>;

/**
 * The cursors that led to the page shown, so that "Newer" can go back. `reset` returns to the first
 * page (when the filters change).
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    number: cursors.length + 1,
    reset: () => setCursors([]),
    newer: () => setCursors((c) => c.slice(0, -1)),
    older: (next: string) => setCursors((c) => [...c, next]),
  };
}

/**
 * Newer / Older buttons and the page number, in a labelled navigation landmark. A button with
 * nowhere to go is disabled; the arrows are decoration, so the buttons are named "Newer" and "Older".
 */
export function Pager({ pages, next, label = 'Pages' }: { pages: CursorPages; next: string | null | undefined; label?: string }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn" disabled={pages.number === 1} onClick={pages.newer}>
        <span aria-hidden="true">← </span>Newer
      </button>
      <span className="muted small" aria-live="polite">
        Page {pages.number}
      </span>
      <button type="button" className="btn" disabled={!next} onClick={() => next && pages.older(next)}>
        Older<span aria-hidden="true"> →</span>
      </button>
    </nav>
  );
}
