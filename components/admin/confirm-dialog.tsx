'use client';

import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * A modal confirmation on the native `<dialog>` (`showModal`: the rest of the page is inert).
 * While open, Tab and Shift+Tab cycle inside it; Escape or Cancel closes it; either way focus
 * returns to `opener`. Opening it focuses the confirming button, so Enter confirms and Escape
 * backs out. The dialog is named by `title` and described by its `children`.
 */
function ConfirmDialog({
  open,
  title,
  children,
  confirm,
  onConfirm,
  onClose,
  opener,
  danger = true,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  /** The confirming button's text (say the action: "Rotate API key now", not "OK"). */
  confirm: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
  opener: RefObject<HTMLElement | null>;
  danger?: boolean;
}) {
  const box = useRef<HTMLDialogElement>(null);
  const yes = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = box.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      yes.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  const close = () => {
    onClose();
    // The opener is still in the page; it may be drawn again in the same frame (pending text).
    requestAnimationFrame(() => opener.current?.focus());
  };
  const trap = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Tab' || !box.current) return;
    const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <dialog
      ref={box}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onKeyDown={trap}
      onCancel={(e) => {
        // Escape: close through React state so the page and the dialog agree.
        e.preventDefault();
        close();
      }}
      onClose={() => {
        // Closed by the browser itself (a second Escape without a user gesture skips `cancel`).
        if (open) close();
      }}
    >
      {open && (
        <>
          <h2 id={`${id}-title`} className="confirm-title">
            {title}
          </h2>
          <div id={`${id}-body`} className="confirm-body">
            {children}
          </div>
          <div className="form-actions">
            <button
              ref={yes}
              type="button"
              className={danger ? 'btn btn-danger' : 'btn btn-primary'}
              onClick={() => {
                onClose();
                requestAnimationFrame(() => opener.current?.focus());
                onConfirm();
              }}
            >
              {confirm}
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}

/**
 * A button that asks first: it opens a `ConfirmDialog`, and after confirming it shows its pending
 * text (keeping focus) until the action settles. For actions that cannot be undone: rotations,
 * deletions, sending an event again.
 */
export function ConfirmButton({
  children,
  title,
  warning,
  confirm,
  onConfirm,
  pending = false,
  pendingText = 'Working…',
  className = 'btn',
  id,
  danger = true,
}: {
  /** The opener's text. */
  children: ReactNode;
  title: string;
  warning: ReactNode;
  confirm: ReactNode;
  onConfirm: () => void;
  pending?: boolean;
  pendingText?: string;
  className?: string;
  id?: string;
  danger?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      {/* While pending the button stays focusable (aria-disabled), so focus does not drop to the page. */}
      <button
        ref={opener}
        id={id}
        type="button"
        className={className}
        aria-haspopup="dialog"
        aria-disabled={pending || undefined}
        aria-busy={pending || undefined}
        onClick={() => {
          if (!pending) setOpen(true);
        }}
      >
        {pending ? pendingText : children}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        confirm={confirm}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
        opener={opener}
        danger={danger}
      >
        {warning}
      </ConfirmDialog>
    </>
  );
}
