import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnyResourceApi } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { feedback } from '../../core/feedback.tsx';
import type { ListApi, ListPageConfig, Row } from './types.ts';

interface WriteOptions {
  /** The resource's operations (the contract's `resourceApi`, or a list alone). */
  api: ListApi;
  /** Calls that replace the standard ones (areas). */
  endpoints?: ListPageConfig<Row>['endpoints'];
  /** After any successful write: reload what shows it. */
  onChanged(): void;
  /** After a delete, before `onChanged` (a list drops its ticks). */
  onRemoved?(): void;
}

/**
 * The create/update and delete calls of a resource screen (lists and trees alike), each confirmed with its
 * toast. An update is a body with an `Id`; one id is deleted with DELETE, several with BatchDelete.
 */
export function useResourceWrites({ api, endpoints, onChanged, onRemoved }: WriteOptions) {
  const { t } = useTranslation();
  const write = (op: AnyResourceApi['create'], body: Record<string, unknown>) =>
    call(op!, { body } as never, { quiet: true });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      'Id' in body
        ? (endpoints?.update?.(body) ?? write(api.update, body))
        : (endpoints?.create?.(body) ?? write(api.create, body)),
    onSuccess: (_data, body) => {
      feedback.success(t('Id' in body ? 'list.saved' : 'list.created'));
      onChanged();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: number[]) =>
      endpoints?.remove?.(ids) ??
      (ids.length === 1
        ? call(api.remove!, { params: { Id: ids[0] } } as never)
        : call(api.batchRemove!, { body: { Ids: ids } } as never)),
    onSuccess: (_data, ids) => {
      feedback.success(t('list.deleted', { count: ids.length }));
      onRemoved?.();
      onChanged();
    },
  });
  return { save, remove };
}
