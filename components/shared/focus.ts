'use client';

import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to an element once it exists and is shown: after a save re-renders a list, or a page
 * loads its data, the target may appear only after a slow request (and a message slot is hidden
 * while empty). Gives up after `ms` (10 s), or as soon as `still` says no.
 */
export function focusWhenReady(
  find: () => HTMLElement | null | undefined,
  then?: (el: HTMLElement) => void,
  ms = 10_000,
  still: () => boolean = () => true,
): void {
  const deadline = performance.now() + ms;
  const tick = () => {
    if (!still()) return;
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

/**
 * Takes note of where focus is now, when an action starts, and gives back the `focusId` for its
 * end: that one moves focus only while it is still there (or was lost with a removed element). A
 * person who went on to another field while the request was out, typing a note while a tag saved,
 * keeps their place and their keystrokes.
 */
export function focusAfterAction(): (id: string) => void {
  const since = document.activeElement;
  const stayed = () => {
    const now = document.activeElement;
    return now === null || now === since || now === document.body || !now.isConnected;
  };
  return (id) => focusWhenReady(() => document.getElementById(id), undefined, undefined, stayed);
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
