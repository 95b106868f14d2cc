import { Checkbox, DatePicker, Form, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { antdRule, required } from '@gatehouse/shared';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import { OptionSelect } from '../../../components/list-page/index.ts';
import { departmentOptions, peopleGroupOptions } from '../../options.ts';
import { ChannelPicker } from './ChannelPicker.tsx';
import { validityBody } from './validity.ts';
import { FormModal } from '../../../components/FormModal.tsx';

type Target = 'department' | 'group';

interface Values {
  Target: Target;
  DepartmentId?: number;
  IncludeSubDepartments: boolean;
  PeopleGroupId?: number;
  ChannelIds: number[];
  Validity?: [Dayjs | null, Dayjs | null] | null;
}

interface BatchResult {
  Holders: number;
  Granted: number;
  Updated: number;
  Unchanged: number;
  SkippedDisabled: number;
  SkippedNoCard: number;
}

interface Props {
  open: boolean;
  onClose(): void;
  onGranted(): void;
}

/**
 * Grants a whole department (with its sub-departments unless unticked) or a people group onto chosen
 * channels. Disabled holders and holders without a card are left out; the result says how many.
 */
export function BatchGrantDialog({ open, onClose, onGranted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const target = (Form.useWatch('Target', form) as Target | undefined) ?? 'department';
  const rule = antdRule((k) => t(k), required);

  async function save(values: Values) {
    const result = await http.post<BatchResult>('/api/CardUserLinkChannel/BatchGrant', {
      ...(values.Target === 'department'
        ? { DepartmentId: values.DepartmentId, IncludeSubDepartments: values.IncludeSubDepartments }
        : { PeopleGroupId: values.PeopleGroupId }),
      ChannelIds: values.ChannelIds,
      ...validityBody(values.Validity),
    });
    feedback.success(
      t('accessControl.message.batchGranted', {
        holders: result.Holders,
        granted: result.Granted,
        updated: result.Updated,
        skippedDisabled: result.SkippedDisabled,
        skippedNoCard: result.SkippedNoCard,
      }),
      8,
    );
    onGranted();
  }

  return (
    <FormModal
      form={form}
      open={open}
      title={t('acUi.grant.batchTitle')}
      width={680}
      destroyOnHidden
      okText={t('acUi.grant.submit')}
      onCancel={onClose}
      onSubmit={save}
      okTestId="batch-grant-ok"
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ Target: 'department', IncludeSubDepartments: true }}
      >
        <Form.Item name="Target" label={t('acUi.grant.target')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'department', label: t('accessControl.field.Department') },
              { value: 'group', label: t('accessControl.field.PeopleGroup') },
            ]}
            data-testid="batch-target"
          />
        </Form.Item>
        {target === 'department' ? (
          <>
            <Form.Item name="DepartmentId" label={t('accessControl.field.Department')} rules={[rule]}>
              <OptionSelect source={departmentOptions} tree testId="batch-department" />
            </Form.Item>
            <Form.Item name="IncludeSubDepartments" valuePropName="checked">
              <Checkbox data-testid="batch-sub-departments">
                {t('accessControl.field.IncludeSubDepartments')}
              </Checkbox>
            </Form.Item>
          </>
        ) : (
          <Form.Item name="PeopleGroupId" label={t('accessControl.field.PeopleGroup')} rules={[rule]}>
            <OptionSelect source={peopleGroupOptions} testId="batch-group" />
          </Form.Item>
        )}
        <Form.Item name="ChannelIds" label={t('accessControl.field.Channels')} rules={[rule]}>
          <ChannelPicker />
        </Form.Item>
        <Form.Item
          name="Validity"
          label={t('accessControl.field.CustomValidity')}
          extra={t('acUi.grant.validityHint')}
        >
          <DatePicker.RangePicker showTime style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
