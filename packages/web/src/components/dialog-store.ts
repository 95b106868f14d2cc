import { create } from 'zustand';

/**
 * A screen's dialogs and what each is open on, for list declarations made once at module level: a row
 * action opens a dialog through `open`, and the screen mounts the dialog, reading its subject with `use`.
 */
export function dialogStore<D extends object>(keys: readonly (keyof D)[]) {
  type Open = { [K in keyof D]: D[K] | null };
  const store = create<Open>()(() => Object.fromEntries(keys.map((k) => [k, null])) as Open);
  return {
    open<K extends keyof D>(key: K, value: D[K]): void {
      store.setState({ [key]: value } as unknown as Partial<Open>);
    },
    close(key: keyof D): void {
      store.setState({ [key]: null } as unknown as Partial<Open>);
    },
    /** The dialog's subject (null while closed). */
    use<K extends keyof D>(key: K): D[K] | null {
      return store((s) => s[key]);
    },
  };
}
