import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MUSTER_TEXT_MAX, MusterApi, type MusterItem } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { ChannelPicker } from '../card-user-link-channel/ChannelPicker.tsx';

interface Values {
  ChannelIds?: number[];
  Reason?: string;
}

interface Props {
  open: boolean;
  areaId: number;
  /** Inside now: everyone on the roll. */
  inside: number | undefined;
  onClose(): void;
  onStarted(muster: MusterItem): void;
}

/**
 * Starts a roll call of everyone inside the area now: the readers chosen as muster points (a granted swipe there
 * marks its holder safe; none: by hand only) and an optional reason.
 */
export function StartMusterDialog({ open, areaId, inside, onClose, onStarted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  return (
    <FormModal
      form={form}
      open={open}
      title={t('musterUi.start.title')}
      width={600}
      destroyOnHidden
      okText={t('musterUi.start.ok')}
      onCancel={onClose}
      onSubmit={async (values) => {
        const muster = await call(MusterApi.start, {
          body: {
            AreaId: areaId,
            ChannelIds: values.ChannelIds ?? [],
            Reason: values.Reason?.trim() || null,
          },
        });
        feedback.success(t('accessControl.message.musterStarted', { count: muster.Total }), 4);
        onStarted(muster);
      }}
      okTestId="muster-start-ok"
    >
      {inside !== undefined && (
        <Typography.Paragraph data-testid="muster-start-inside">
          {t('musterUi.start.inside', { count: inside })}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="ChannelIds"
          label={t('musterUi.start.points')}
          extra={t('musterUi.start.pointsHint')}
        >
          <ChannelPicker />
        </Form.Item>
        <Form.Item name="Reason" label={t('musterUi.start.reason')}>
          <Input
            maxLength={MUSTER_TEXT_MAX}
            placeholder={t('musterUi.start.reasonPlaceholder')}
            data-testid="muster-reason"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** Ends a roll call under way, with an optional note: its result stays as it is. */
export function EndMusterDialog({
  muster,
  onClose,
  onEnded,
}: {
  muster: MusterItem | null;
  onClose(): void;
  onEnded(muster: MusterItem): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ Note?: string }>();
  return (
    <FormModal
      form={form}
      open={muster !== null}
      title={t('musterUi.roll.endTitle')}
      destroyOnHidden
      okText={t('musterUi.roll.end')}
      okButtonProps={{ danger: true }}
      onCancel={onClose}
      onSubmit={async (values) => {
        const ended = await call(MusterApi.end, {
          body: { Id: muster!.Id, Note: values.Note?.trim() || null },
        });
        feedback.success(
          t('accessControl.message.musterEnded', { safe: ended.Safe, missing: ended.Missing }),
          5,
        );
        onEnded(ended);
      }}
      okTestId="muster-end-ok"
    >
      <Typography.Paragraph type="secondary">{t('musterUi.roll.endHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="Note" label={t('musterUi.roll.endNote')}>
          <Input.TextArea maxLength={MUSTER_TEXT_MAX} rows={2} data-testid="muster-end-note" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
