import { DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  VISITOR_COMPANY_MAX,
  VISITOR_NAME_MAX,
  VisitorPassApi,
  antdRule,
  phone,
  required,
  type VisitorPassItem,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { fromSitePicker, siteNow } from '../../../core/site-time.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { ChannelPicker } from '../card-user-link-channel/ChannelPicker.tsx';
import { HolderSelect } from '../card-user-link-channel/HolderSelect.tsx';

interface Values {
  VisitorName: string;
  Phone?: string;
  Company?: string;
  HostCardUserId: number;
  ChannelIds: number[];
  Window: [Dayjs, Dayjs];
}

interface Props {
  open: boolean;
  onClose(): void;
  onIssued(pass: VisitorPassItem & { QrDataUrl: string }): void;
}

/** A window picked at the area's clock, to the minute (the server refuses seconds). */
const atMinute = (wall: Dayjs) => fromSitePicker(wall.second(0).millisecond(0));

/**
 * Issues a pass: the visitor, the host who invited them (a card holder of the area), the doors, and the window at
 * the area's clock (opening on the next minute for four hours). The server draws the card number and answers
 * with the pass and its QR code, which the page shows at once for printing.
 */
export function IssuePassDialog({ open, onClose, onIssued }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const rule = antdRule((k) => t(k), required);
  const phoneRule = antdRule((k) => t(k), phone);
  const start = () => siteNow().add(1, 'minute').second(0).millisecond(0);
  return (
    <FormModal
      form={form}
      open={open}
      title={t('acUi.visitor.issueTitle')}
      width={640}
      destroyOnHidden
      okText={t('acUi.visitor.issueOk')}
      onCancel={onClose}
      onSubmit={async (values) => {
        const pass = await call(VisitorPassApi.create, {
          body: {
            VisitorName: values.VisitorName,
            Phone: values.Phone || null,
            Company: values.Company || null,
            HostCardUserId: values.HostCardUserId,
            ChannelIds: values.ChannelIds,
            ValidFrom: atMinute(values.Window[0]),
            ValidTo: atMinute(values.Window[1]),
          },
        });
        feedback.success(t('accessControl.message.passIssued', { card: pass.CardNumber }), 5);
        onIssued(pass);
      }}
      okTestId="visitor-issue-ok"
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ Window: [start(), start().add(4, 'hour')] }}
      >
        <Form.Item name="VisitorName" label={t('accessControl.field.VisitorName')} rules={[rule]}>
          <Input
            maxLength={VISITOR_NAME_MAX}
            placeholder={t('acUi.visitor.namePlaceholder')}
            data-testid="visitor-name"
          />
        </Form.Item>
        <Form.Item name="Company" label={t('accessControl.field.Company')}>
          <Input maxLength={VISITOR_COMPANY_MAX} data-testid="visitor-company" />
        </Form.Item>
        <Form.Item name="Phone" label={t('accessControl.field.Phone')} rules={[phoneRule]}>
          <Input maxLength={11} data-testid="visitor-phone" />
        </Form.Item>
        <Form.Item name="HostCardUserId" label={t('accessControl.field.Host')} rules={[rule]}>
          <HolderSelect />
        </Form.Item>
        <Form.Item name="ChannelIds" label={t('accessControl.field.Doors')} rules={[rule]}>
          <ChannelPicker />
        </Form.Item>
        <Form.Item
          name="Window"
          label={t('accessControl.field.PassWindow')}
          rules={[rule]}
          extra={t('acUi.visitor.validityHint')}
        >
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            allowClear={false}
            style={{ width: '100%' }}
            data-testid="visitor-window"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
