import { AreaInfoApi, OptionsApi, type UserOption } from '@gatehouse/shared';
import { useEffect, useState } from 'react';
import { Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { PageModal } from '../../../components/PageModal.tsx';
import { useSaving } from '../../../components/use-saving.ts';

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
  const [saving, withSaving] = useSaving();
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
    await withSaving(async () => {
      await call(AreaInfoApi.setAuth, { query: { Id: area!.Id, UserIds: selected.join(',') } });
      feedback.success(t('list.saved'));
      onSaved();
      onClose();
    });
  }

  return (
    <PageModal
      open={area !== null}
      title={`${t('adminUi.areaUsers')} · ${area?.Name ?? ''}`}
      mask={DIALOG_MASK}
      destroyOnHidden
      width={640}
      confirmLoading={saving}
      okText={t('list.save')}
      cancelText={t('list.cancel')}
      onCancel={onClose}
      onOk={() => void save()}
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
    </PageModal>
  );
}
