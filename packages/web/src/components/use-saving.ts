import { useCallback, useState } from 'react';

/**
 * The "saving" state of a dialog's OK button: `withSaving(work)` shows it while `work` runs and clears it
 * however `work` ends (its rejection passes through, so the caller still sees the failure). Validation
 * runs before, so a form with errors never flashes the spinner.
 */
export function useSaving(): [saving: boolean, withSaving: <T>(work: () => Promise<T>) => Promise<T>] {
  const [saving, setSaving] = useState(false);
  const withSaving = useCallback(async <T>(work: () => Promise<T>): Promise<T> => {
    setSaving(true);
    try {
      return await work();
    } finally {
      setSaving(false);
    }
  }, []);
  return [saving, withSaving];
}
