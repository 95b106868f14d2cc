import { Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { useAreaStore } from '../../../stores/area.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import type { Ask } from '../dialog-state.ts';
import type { AssignSubject, PoolApi } from './pool-actions.ts';

interface Props {
  api: PoolApi;
  request: Ask<AssignSubject> | null;
}

/** Picks one of the caller's areas for pool devices or cards (the server refuses other areas). */
export function AssignAreaDialog({ api, request }: Props) {
  const { t } = useTranslation();
  const areas = useAreaStore((s) => s.areas);
  const [form] = Form.useForm<{ AreaId: number }>();

  async function save({ AreaId }: { AreaId: number }) {
    await call(api.assign, { body: { Ids: request!.value.ids, AreaId } });
    feedback.success(t('accessControl.message.assigned'));
    request!.done();
  }

  return (
    <FormModal
      form={form}
      open={request !== null}
      title={t('acUi.pool.assignTitle')}
      destroyOnHidden
      okText={t('acUi.pool.assign')}
      onCancel={() => request?.cancel()}
      onSubmit={save}
      okTestId="assign-ok"
    >
      <Typography.Paragraph>{request?.value.subject}</Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="AreaId"
          label={t('accessControl.field.Area')}
          rules={[antdRule((k) => t(k), required)]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('list.choose')}
            options={areas.map((a) => ({ value: a.Id, label: a.Name }))}
            data-testid="assign-area"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
