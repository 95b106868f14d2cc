import { useEffect } from 'react';
import { DatePicker, Form, Input, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CardUserApi, antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import type { Ask } from '../dialog-state.ts';
import type { HolderRow } from './holder-form.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { formatSiteTime, fromSitePicker, siteNow, toSitePicker } from '../../../core/site-time.ts';

/** The holders to extend; done or cancelled as the batch or row action that asked. */
export type ExtendRequest = Ask<HolderRow[]>;

/**
 * The proposed new end: a year after the later of now and the latest current end (an extension must move
 * every holder's end later; the server refuses one that does not, naming the holder).
 */
export function proposedEnd(holders: readonly Pick<HolderRow, 'ValidTo'>[], now: Dayjs = siteNow()): Dayjs {
  const latest = holders.reduce((max, h) => {
    const end = toSitePicker(h.ValidTo);
    return end?.isAfter(max) ? end : max;
  }, now);
  return latest.add(1, 'year').endOf('day');
}

/** Extends one or many holders to a new end of validity, with a remark (change and renewal records). */
export function ExtendDialog({ request }: { request: ExtendRequest | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ ValidTo: Dayjs; Remark?: string }>();
  const holders = request?.value ?? [];

  useEffect(() => {
    if (request) form.setFieldsValue({ ValidTo: proposedEnd(request.value), Remark: undefined });
  }, [request, form]);

  async function save(values: { ValidTo: Dayjs; Remark?: string }) {
    await call(CardUserApi.extend, {
      body: {
        Ids: holders.map((h) => h.Id),
        ValidTo: fromSitePicker(values.ValidTo),
        Remark: values.Remark?.trim() || null,
      },
    });
    feedback.success(t('accessControl.message.extended', { count: holders.length }));
    request!.done();
  }

  const one = holders.length === 1 ? holders[0] : undefined;
  return (
    <FormModal
      form={form}
      open={request !== null}
      title={t('acUi.holder.extendTitle')}
      forceRender
      okText={t('acUi.holder.extend')}
      onCancel={() => request?.cancel()}
      onSubmit={save}
      okTestId="extend-ok"
    >
      <Typography.Paragraph>
        {one
          ? t('acUi.holder.extendOne', {
              name: one.Name,
              end: formatSiteTime(one.ValidTo, 'YYYY-MM-DD HH:mm'),
            })
          : t('acUi.holder.extendMany', { count: holders.length })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="ValidTo"
          label={t('accessControl.field.NewValidTo')}
          rules={[antdRule((k) => t(k), required)]}
        >
          <DatePicker showTime style={{ width: '100%' }} data-testid="extend-ValidTo" />
        </Form.Item>
        <Form.Item name="Remark" label={t('accessControl.field.Remark')}>
          <Input.TextArea rows={2} maxLength={200} showCount data-testid="extend-Remark" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
