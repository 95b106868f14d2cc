import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { create } from 'zustand';

/**
 * A dialog of a page whose list is declared at module level: the declaration's row actions and toolbar
 * open it (they run outside the component), the page shows it. The page closes it when it unmounts.
 */
export interface DialogState<T> {
  open(value: T): void;
  close(): void;
  /** What the dialog is open for, or null. */
  useValue(): T | null;
}

export function dialogState<T>(): DialogState<T> {
  const store = create<{ value: T | null }>(() => ({ value: null }));
  const close = () => store.setState({ value: null });
  return {
    open: (value) => store.setState({ value }),
    close,
    useValue() {
      useEffect(() => close, []);
      return store((s) => s.value);
    },
  };
}

/**
 * A dialog that decides a batch or row action: `ask` opens it and resolves when it is done, rejects when it
 * is closed without (a batch action keeps its ticks then).
 */
export interface Ask<T> {
  done(): void;
  cancel(): void;
  value: T;
}

export function ask<T>(dialog: DialogState<Ask<T>>, value: T): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    dialog.open({
      value,
      done: () => {
        dialog.close();
        resolve();
      },
      cancel: () => {
        dialog.close();
        reject(new Error('cancelled'));
      },
    }),
  );
}

/**
 * A screen a module-level declaration asks its page to open (a row action leading to another screen): `go`
 * from the declaration, `useFollow` in the page, which navigates there.
 */
export function linkState() {
  const state = dialogState<string>();
  return {
    go: state.open,
    useFollow() {
      const navigate = useNavigate();
      const to = state.useValue();
      useEffect(() => {
        if (to === null) return;
        state.close();
        void navigate(to);
      }, [to, navigate]);
    },
  };
}
