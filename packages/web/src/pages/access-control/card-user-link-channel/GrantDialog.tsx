import { Checkbox, DatePicker, Form, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CardUserLinkChannelApi, antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { OptionSelect } from '../../../components/list-page/index.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { departmentOptions, peopleGroupOptions } from '../../options.ts';
import { useHolderGrants } from '../options.ts';
import { timeProfileOptions } from '../access-rules/options.ts';
import { ChannelPicker } from './ChannelPicker.tsx';
import { HolderSelect } from './HolderSelect.tsx';
import { validityBody } from './validity.ts';

/** One holder, or a whole department or people group at once (AccessControl/Admin). */
export type GrantMode = 'one' | 'batch';
type Target = 'department' | 'group';

interface Values {
  CardUserId?: number;
  Target?: Target;
  DepartmentId?: number;
  IncludeSubDepartments?: boolean;
  PeopleGroupId?: number;
  ChannelIds: number[];
  Validity?: [Dayjs | null, Dayjs | null] | null;
  TimeProfileId?: number | null;
}

interface Props {
  mode: GrantMode | null;
  onClose(): void;
  onGranted(): void;
}

/** Grants onto the chosen channels and says what it did; the message stays longer for a batch. */
async function grant(mode: GrantMode, values: Values, t: TFunction) {
  const target = {
    ChannelIds: values.ChannelIds,
    ...validityBody(values.Validity),
    ...(values.TimeProfileId ? { TimeProfileId: values.TimeProfileId } : {}),
  };
  if (mode === 'one') {
    const result = await call(CardUserLinkChannelApi.grant, {
      body: { CardUserId: values.CardUserId!, ...target },
    });
    feedback.success(
      t('accessControl.message.granted', {
        granted: result.Granted,
        updated: result.Updated,
        unchanged: result.Unchanged,
      }),
      5,
    );
    return;
  }
  const result = await call(CardUserLinkChannelApi.batchGrant, {
    body: {
      ...(values.Target === 'group'
        ? { PeopleGroupId: values.PeopleGroupId! }
        : {
            DepartmentId: values.DepartmentId!,
            IncludeSubDepartments: values.IncludeSubDepartments ?? true,
          }),
      ...target,
    },
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
}

/** Who is granted in a batch: a department (with its sub-departments unless unticked) or a people group. */
function BatchTarget({ target }: { target: Target }) {
  const { t } = useTranslation();
  const rule = antdRule((k) => t(k), required);
  return (
    <>
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
    </>
  );
}

/**
 * Grants onto chosen channels: one holder's cards, or (batch) a department or people group, whose disabled
 * holders and holders without a card are left out and counted. Without a validity of its own an
 * authorisation follows the holder's (and an extension of the holder carries over).
 */
export function GrantDialog({ mode, onClose, onGranted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const target = (Form.useWatch('Target', form) as Target | undefined) ?? 'department';
  const rule = antdRule((k) => t(k), required);
  const batch = mode === 'batch';
  // One holder: the channels they already have are marked in the tree and counted under it.
  const holder = Form.useWatch('CardUserId', form) as number | undefined;
  const holderGrants = useHolderGrants(batch ? undefined : holder);
  const granted = useMemo(() => new Set(holderGrants.data?.keys() ?? []), [holderGrants.data]);

  return (
    <FormModal
      form={form}
      open={mode !== null}
      title={t(batch ? 'acUi.grant.batchTitle' : 'acUi.grant.title')}
      width={batch ? 680 : 640}
      destroyOnHidden
      okText={t('acUi.grant.submit')}
      onCancel={onClose}
      onSubmit={async (values) => {
        await grant(mode!, values, t);
        onGranted();
      }}
      okTestId={batch ? 'batch-grant-ok' : 'grant-ok'}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={batch ? { Target: 'department', IncludeSubDepartments: true } : {}}
      >
        {batch ? (
          <BatchTarget target={target} />
        ) : (
          <Form.Item name="CardUserId" label={t('accessControl.field.HolderName')} rules={[rule]}>
            <HolderSelect />
          </Form.Item>
        )}
        <Form.Item
          name="ChannelIds"
          label={t('accessControl.field.Channels')}
          rules={[rule]}
          extra={
            holderGrants.data ? (
              <span data-testid="holder-grants">
                {holderGrants.data.size
                  ? t('acUi.grant.holderHas', { count: holderGrants.data.size })
                  : t('acUi.grant.holderHasNone')}
              </span>
            ) : undefined
          }
        >
          <ChannelPicker granted={granted} />
        </Form.Item>
        <Form.Item
          name="Validity"
          label={t('accessControl.field.CustomValidity')}
          extra={t('acUi.grant.validityHint')}
        >
          <DatePicker.RangePicker showTime style={{ width: '100%' }} data-testid="grant-validity" />
        </Form.Item>
        <Form.Item
          name="TimeProfileId"
          label={t('accessControl.field.TimeProfile')}
          extra={t('acUi.rules.profileHint')}
        >
          <OptionSelect source={timeProfileOptions} testId="grant-profile" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
