import { useEffect } from 'react';
import { DatePicker, Form, Radio, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CardUserLinkChannelApi, antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import type { AuthorizationRow } from './types.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { fromSitePicker, toSitePicker } from '../../../core/site-time.ts';

interface Values {
  Own: boolean;
  Range?: [Dayjs, Dayjs];
}

interface Props {
  item: AuthorizationRow | null;
  onClose(): void;
  onSaved(): void;
}

/**
 * An authorisation's validity: the holder's (followed as it changes) or a range of its own, which the list
 * shows within the holder's. A change waits for the device sync (pending update).
 */
export function ValidityDialog({ item, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const own = Form.useWatch('Own', form) as boolean | undefined;

  useEffect(() => {
    if (item)
      form.setFieldsValue({
        Own: item.CustomValidity,
        Range: [toSitePicker(item.ValidFrom)!, toSitePicker(item.ValidTo)!],
      });
  }, [item, form]);

  async function save(values: Values) {
    await call(CardUserLinkChannelApi.update, {
      body: {
        Id: item!.Id,
        ValidFrom: values.Own && values.Range ? fromSitePicker(values.Range[0]) : null,
        ValidTo: values.Own && values.Range ? fromSitePicker(values.Range[1]) : null,
      },
    });
    feedback.success(t('list.saved'));
    onSaved();
  }

  return (
    <FormModal
      form={form}
      open={item !== null}
      title={t('acUi.auth.validityTitle')}
      forceRender
      okText={t('list.save')}
      onCancel={onClose}
      onSubmit={save}
      okTestId="validity-ok"
    >
      <Typography.Paragraph>
        {item &&
          t('acUi.auth.validitySubject', {
            holder: item.HolderName,
            channel: `${item.DeviceName} · ${item.ChannelName}`,
          })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="Own">
          <Radio.Group
            options={[
              { value: false, label: t('acUi.auth.followHolder') },
              { value: true, label: t('acUi.auth.ownRange') },
            ]}
            data-testid="validity-own"
          />
        </Form.Item>
        {own && (
          <Form.Item
            name="Range"
            label={t('accessControl.field.CustomValidity')}
            rules={[antdRule((k) => t(k), required)]}
          >
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
        )}
      </Form>
    </FormModal>
  );
}
