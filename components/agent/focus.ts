'use client';

/**
 * Focuses the element with this id once it exists and is shown (after the re-render an action
 * causes: a message slot is hidden while empty); gives up after about a second.
 */
export function focusSoon(id: string) {
  let tries = 0;
  const tick = () => {
    const el = document.getElementById(id);
    if (el && el.getClientRects().length > 0) el.focus();
    else if (tries++ < 60) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
