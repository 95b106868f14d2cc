import { AreaInfoApi, OptionsApi, type UserOption } from '@gatehouse/shared';
import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { SaveModal } from '../../../components/FormModal.tsx';

/** Sets the users authorised to operate an area: its current users, chosen among those the caller may see. */
export function AreaUsersDialog({
  area,
  onClose,
  onSaved,
}: {
  area: { Id: number; Name: string } | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<number[]>([]);
  const current = useQuery({
    queryKey: ['area-users', area?.Id],
    queryFn: () => call(AreaInfoApi.users, { query: { Id: area!.Id } }),
    enabled: area !== null,
  });
  const candidates = useQuery({
    queryKey: ['user-options'],
    queryFn: () => call(OptionsApi.users),
    enabled: area !== null,
  });
  useEffect(() => setSelected((current.data ?? []).map((u) => u.Id)), [current.data]);

  // Current users stay choosable even when the caller could not otherwise see them.
  const byId = new Map<number, UserOption>();
  for (const u of [...(candidates.data ?? []), ...(current.data ?? [])]) byId.set(u.Id, u);

  async function save() {
    await call(AreaInfoApi.setAuth, { query: { Id: area!.Id, UserIds: selected.join(',') } });
    feedback.success(t('list.saved'));
    onSaved();
    onClose();
  }

  return (
    <SaveModal
      open={area !== null}
      title={`${t('adminUi.areaUsers')} · ${area?.Name ?? ''}`}
      destroyOnHidden
      width={640}
      okText={t('list.save')}
      onCancel={onClose}
      onSave={save}
    >
      {current.isLoading || candidates.isLoading ? (
        <Spin />
      ) : (
        <Select
          mode="multiple"
          style={{ width: '100%' }}
          value={selected}
          onChange={setSelected}
          showSearch={{ optionFilterProp: 'label' }}
          options={[...byId.values()].map((u) => ({ value: u.Id, label: `${u.Name} (${u.UserName})` }))}
          data-testid="area-users"
        />
      )}
    </SaveModal>
  );
}
