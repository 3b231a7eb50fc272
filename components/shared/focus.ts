'use client';

import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to an element once it exists and is shown: after a save re-renders a list, or a page
 * loads its data, the target may appear only after a slow request (and a message slot is hidden
 * while empty). Gives up after `ms` (10 s).
 */
export function focusWhenReady(find: () => HTMLElement | null | undefined, then?: (el: HTMLElement) => void, ms = 10_000): void {
  const deadline = performance.now() + ms;
  const tick = () => {
    const el = find();
    if (el && el.getClientRects().length > 0) {
      if (!el.hasAttribute('tabindex') && !isFocusable(el)) el.setAttribute('tabindex', '-1');
      el.focus();
      then?.(el);
      return;
    }
    if (performance.now() < deadline) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function isFocusable(el: HTMLElement): boolean {
  return el.matches('a[href], button, input, select, textarea, [tabindex]');
}

/** Focuses the element with this id once it exists and is shown. */
export function focusId(id: string): void {
  focusWhenReady(() => document.getElementById(id));
}

/** Calls `onEscape` when Escape is pressed while `active` (a menu or confirmation open). */
export function useEscape(active: boolean, onEscape: () => void, scope?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!active) return;
    const listener = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      if (scope?.current && !scope.current.contains(document.activeElement)) return;
      e.preventDefault();
      onEscape();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [active, onEscape, scope]);
}
