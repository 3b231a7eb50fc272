'use client';

/** Focuses the element with this id once it exists (after the re-render an action causes); gives up after about a second. */
export function focusSoon(id: string) {
  let tries = 0;
  const tick = () => {
    const el = document.getElementById(id);
    if (el) el.focus();
    else if (tries++ < 60) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
