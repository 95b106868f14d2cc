import { useState } from 'react';
import { Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { antdRule, required } from '@gatehouse/shared';
import { DIALOG_MASK, feedback } from '../../../app/feedback.tsx';
import { useAreaStore } from '../../../stores/area.ts';
import { PageModal } from '../../../components/PageModal.tsx';

export interface AssignRequest {
  /** What is being assigned, for the dialog's text: "3 devices", "serial 1234…". */
  subject: string;
  submit(areaId: number): Promise<unknown>;
  /** After a successful assignment. */
  done(): void;
  /** Closed without assigning. */
  cancel(): void;
}

/** Picks one of the caller's areas for pool devices or cards (the server refuses other areas). */
export function AssignAreaDialog({ request }: { request: AssignRequest | null }) {
  const { t } = useTranslation();
  const areas = useAreaStore((s) => s.areas);
  const [form] = Form.useForm<{ AreaId: number }>();
  const [saving, setSaving] = useState(false);

  async function save() {
    const { AreaId } = await form.validateFields();
    setSaving(true);
    try {
      await request!.submit(AreaId);
      feedback.success(t('accessControl.message.assigned'));
      request!.done();
    } finally {
      setSaving(false);
    }
  }

  return (
    <PageModal
      open={request !== null}
      title={t('acUi.pool.assignTitle')}
      mask={DIALOG_MASK}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('acUi.pool.assign')}
      cancelText={t('list.cancel')}
      onCancel={() => request?.cancel()}
      onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ 'data-testid': 'assign-ok' } as never}
    >
      <Typography.Paragraph>{request?.subject}</Typography.Paragraph>
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
    </PageModal>
  );
}
