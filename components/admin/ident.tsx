'use client';

import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * A long identifier (login ID, transaction ID, URL) kept on one line and cut with an ellipsis when
 * space runs out. The whole value stays in the page (screen readers read it, copy takes it) and in
 * the title for a pointer; when it is cut, it becomes a button that shows it in full, wrapped, so a
 * touch or keyboard user can read it too.
 */
export function Ident({ value, className = '' }: { value: string; className?: string }) {
  const box = useRef<HTMLElement>(null);
  const [cut, setCut] = useState(false);
  const [full, setFull] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the element changes (cut text becomes a button, and back)
  useEffect(() => {
    const el = box.current;
    if (!el || full) return;
    const measure = () => setCut(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [full, cut]);
  const classes = `ident mono ${full ? 'ident-full' : 'truncate'} ${className}`.trim();
  if (!cut && !full) {
    return (
      <code ref={box} className={classes} title={value}>
        {value}
      </code>
    );
  }
  return (
    <button
      ref={box as RefObject<HTMLButtonElement | null>}
      type="button"
      className={`${classes} ident-toggle`}
      title={full ? undefined : value}
      aria-expanded={full}
      onClick={() => setFull((f) => !f)}
    >
      {value}
      <span className="sr-only">{full ? ' (shown in full)' : ' (cut short: show in full)'}</span>
    </button>
  );
}
