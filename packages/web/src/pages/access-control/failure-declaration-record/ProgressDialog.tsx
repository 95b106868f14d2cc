import { useEffect } from 'react';
import { Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FAULT, FailureDeclarationRecordApi, faultReportStatus } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { OptionSelect } from '../../../components/list-page/index.ts';
import { handlerOptions } from '../options.ts';
import type { FaultRow } from './types.ts';
import { FormModal } from '../../../components/FormModal.tsx';

interface Values {
  Status: number;
  Note?: string;
  HandlerId?: number | null;
}

interface Props {
  item: FaultRow | null;
  onClose(): void;
  onSaved(): void;
}

/**
 * Moves a fault report forward (open → in progress → resolved, or straight to resolved), with a note and
 * the handler; keeping the status records a note or a hand-over. Resolving needs a note; resolved is final.
 */
export function ProgressDialog({ item, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const status = Form.useWatch('Status', form) as number | undefined;

  useEffect(() => {
    if (item)
      form.setFieldsValue({
        Status: Math.min(item.Status + 1, FAULT.resolved),
        Note: undefined,
        HandlerId: item.HandlerId,
      });
  }, [item, form]);

  async function save(values: Values) {
    await call(FailureDeclarationRecordApi.progress, {
      body: {
        Id: item!.Id,
        Status: values.Status,
        Note: values.Note?.trim() || null,
        HandlerId: values.HandlerId ?? null,
      },
    });
    feedback.success(t('accessControl.message.faultProgressed'));
    onSaved();
  }

  const resolving = status === FAULT.resolved;
  return (
    <FormModal
      form={form}
      open={item !== null}
      title={t('acUi.fault.progressTitle')}
      forceRender
      okText={t('list.save')}
      onCancel={onClose}
      onSubmit={save}
      okTestId="progress-ok"
    >
      <Typography.Paragraph ellipsis={{ rows: 2 }}>
        {item &&
          `${item.DeviceName}${item.ChannelName ? ` · ${item.ChannelName}` : ''}${t('acUi.colon')}${item.Description}`}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="Status" label={t('accessControl.field.FaultStatus')}>
          <Select
            // Forward only: the current status (a note or a hand-over) and the ones after it.
            options={faultReportStatus.items
              .filter((s) => s.value >= (item?.Status ?? 0))
              .map((s) => ({ value: s.value, label: String(t(s.key as never)) }))}
            data-testid="progress-status"
          />
        </Form.Item>
        <Form.Item name="HandlerId" label={t('accessControl.field.Handler')}>
          <OptionSelect source={handlerOptions} testId="progress-handler" />
        </Form.Item>
        <Form.Item
          name="Note"
          label={t('accessControl.field.Note')}
          rules={
            resolving
              ? [
                  {
                    required: true,
                    whitespace: true,
                    message: t('accessControl.error.resolutionNoteRequired'),
                  },
                ]
              : []
          }
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="progress-note" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
