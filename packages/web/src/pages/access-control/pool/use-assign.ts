import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { http } from '../../../core/http.ts';
import type { AssignRequest } from './AssignAreaDialog.tsx';
import type { PoolResource } from './pool-actions.ts';

/**
 * Assigning pool rows (devices or cards) to an area through the dialog: `ask` opens it and resolves when
 * the rows are assigned, rejects when the dialog is closed without (a batch action keeps its ticks then).
 * `ask` and `unassign` keep their identity, so list declarations built from them stay stable.
 */
export function usePoolAssign(resource: PoolResource) {
  const queryClient = useQueryClient();
  const [request, setRequest] = useState<AssignRequest | null>(null);
  const ask = useCallback(
    (ids: number[], subject: string) =>
      new Promise<void>((resolve, reject) =>
        setRequest({
          subject,
          submit: (areaId) => http.post(`/api/${resource}/Assign`, { Ids: ids, AreaId: areaId }),
          done: () => {
            setRequest(null);
            void queryClient.invalidateQueries({ queryKey: ['list', resource] });
            resolve();
          },
          cancel: () => {
            setRequest(null);
            reject(new Error('cancelled'));
          },
        }),
      ),
    [queryClient, resource],
  );
  const unassign = useCallback(
    (ids: number[]) => http.post(`/api/${resource}/Unassign`, { Ids: ids }),
    [resource],
  );
  return { request, ask, unassign };
}
