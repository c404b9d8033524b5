import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  submitLabel: string;
  onSubmit(form: FormData): void;
  onCancel(): void;
  children?: ComponentChildren;
}

/**
 * A modal question (the browser's <dialog>): focus moves into it, Tab stays inside, Escape or
 * "Cancel" closes it without doing anything, and focus returns where it was.
 */
export function Dialog({ title, submitLabel, onSubmit, onCancel, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onCancel={(e) => (e.preventDefault(), onCancel())}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(new FormData(e.currentTarget));
        }}
      >
        <h2 id="dialog-title">{title}</h2>
        {children}
        <div class="dialog-actions">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit">{submitLabel}</button>
        </div>
      </form>
    </dialog>
  );
}
