'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A table that may be wider than the screen: a labelled region that keyboard users can focus and
 * scroll with the arrow keys, edge shadows, and a visible hint while columns are out of view.
 */
export function TableRegion({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLElement>(null);
  const [wide, setWide] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWide(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {wide && (
        <p className="scroll-hint" aria-hidden="true">
          Scroll sideways for more columns →
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled */}
      <section ref={box} className={`table-wrap${className ? ` ${className}` : ''}`} aria-label={label} tabIndex={0}>
        {children}
      </section>
    </>
  );
}
