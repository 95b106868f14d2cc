import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnyResourceApi } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { http } from '../../core/http.ts';
import { feedback } from '../../core/feedback.tsx';
import type { ListApi, ListPageConfig, Row } from './types.ts';

interface WriteOptions {
  /** The resource's operations (the contract's `resourceApi`, or a list alone). */
  api?: ListApi;
  /** Legacy: the resource's name, for screens not yet on the contract. */
  resource?: string;
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
export function useResourceWrites({ api, resource, endpoints, onChanged, onRemoved }: WriteOptions) {
  const { t } = useTranslation();
  const base = `/api/${api?.name ?? resource}`;
  const write = (op: AnyResourceApi['create'], body: Record<string, unknown>) =>
    call(op!, { body } as never, { quiet: true });
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      'Id' in body
        ? (endpoints?.update?.(body) ??
          (api ? write(api.update, body) : http.put(base, body, { quiet: true })))
        : (endpoints?.create?.(body) ??
          (api ? write(api.create, body) : http.post(base, body, { quiet: true }))),
    onSuccess: (_data, body) => {
      feedback.success(t('Id' in body ? 'list.saved' : 'list.created'));
      onChanged();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: number[]) =>
      endpoints?.remove?.(ids) ??
      (api
        ? ids.length === 1
          ? call(api.remove!, { params: { Id: ids[0] } } as never)
          : call(api.batchRemove!, { body: { Ids: ids } } as never)
        : ids.length === 1
          ? http.del(`${base}/${ids[0]}`)
          : http.post(`${base}/BatchDelete`, { Ids: ids })),
    onSuccess: (_data, ids) => {
      feedback.success(t('list.deleted', { count: ids.length }));
      onRemoved?.();
      onChanged();
    },
  });
  return { save, remove };
}
