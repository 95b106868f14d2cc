import { useId } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { OptionSelect } from './OptionSelect.tsx';
import { SiteZoneNote } from '../SiteZoneNote.tsx';
import { rangeTooLong, type FilterValues } from './query.ts';
import type { FilterDef } from './types.ts';

interface Props {
  filters: readonly FilterDef[];
  initialValues: FilterValues;
  /** What Reset returns to, when the list opened with other values than its defaults. */
  resetValues?: FilterValues;
  onSearch(values: FilterValues): void;
  onReset(): void;
  /** Whether every filter is valid, each time a field's errors change (a range over its limit is not). */
  onValidity?(valid: boolean): void;
}

/** The filter row above a list: one control per declared filter, Search and Reset. */
export function FilterBar({ filters, initialValues, resetValues, onSearch, onReset, onValidity }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  // Field ids are `<form name>_<field>`: cached tabs keep several lists in the document, and two fields
  // with one id would leave the visible field's <label> pointing at a hidden page's.
  const formName = useId();
  if (filters.length === 0) return null;
  return (
    <Form
      form={form}
      name={formName}
      layout="inline"
      initialValues={initialValues}
      onFinish={onSearch}
      onFieldsChange={(_changed, all) => onValidity?.(!all.some((field) => field.errors?.length))}
      className="list-page-filters"
      data-testid="list-filters"
    >
      {filters.map((f) => (
        <Form.Item
          key={f.name}
          name={f.name}
          label={t(f.label)}
          tooltip={f.kind === 'dateRange' && f.maxDays ? t('list.maxDays', { days: f.maxDays }) : undefined}
          rules={dateRangeRules(f, t)}
        >
          <FilterControl filter={f} />
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="list-search">
            {t('list.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              // Opened with preset values (a link): Reset clears them back to the declared defaults.
              if (resetValues)
                form.setFieldsValue(Object.fromEntries(filters.map((f) => [f.name, resetValues[f.name]])));
              onReset();
            }}
            data-testid="list-reset"
          >
            {t('list.reset')}
          </Button>
        </Space>
      </Form.Item>
      {filters.some((f) => f.kind === 'dateRange') && (
        <Form.Item>
          <SiteZoneNote />
        </Form.Item>
      )}
    </Form>
  );
}

/**
 * A date range's limit as a rule: days are not disabled in the picker, so a typed range beyond them would be
 * reverted without a word; the field says the spec's rule instead, and Search waits for it.
 */
function dateRangeRules(f: FilterDef, t: TFunction) {
  if (f.kind !== 'dateRange' || f.maxDays === undefined) return undefined;
  const maxDays = f.maxDays;
  return [
    {
      validator: (_rule: unknown, value: [Dayjs | null, Dayjs | null] | null) =>
        rangeTooLong(value, maxDays)
          ? Promise.reject(new Error(t('error.daySpanTooLong', { days: maxDays })))
          : Promise.resolve(),
    },
  ];
}

/**
 * One filter's control. Form.Item injects `value` and `onChange` into its direct child, so they arrive here
 * and are handed on to the antd control.
 */
function FilterControl({ filter: f, ...control }: { filter: FilterDef; [prop: string]: unknown }) {
  const { t } = useTranslation();
  const testId = `filter-${f.name}`;
  switch (f.kind) {
    case 'text':
      return (
        <Input
          {...control}
          allowClear
          style={{ width: f.width ?? 180 }}
          placeholder={f.placeholder ? t(f.placeholder) : t('list.enter')}
          data-testid={testId}
        />
      );
    case 'number':
      return <InputNumber {...control} style={{ width: f.width ?? 140 }} data-testid={testId} />;
    case 'bool':
      return (
        <Select
          {...control}
          allowClear
          style={{ width: f.width ?? 120 }}
          placeholder={t('list.choose')}
          options={[
            { value: false, label: t('enum.disabledFlag.false') },
            { value: true, label: t('enum.disabledFlag.true') },
          ]}
          data-testid={testId}
        />
      );
    case 'dateRange':
      return (
        <DatePicker.RangePicker
          {...control}
          allowClear={!f.defaultDays}
          style={{ width: f.width ?? 260 }}
          data-testid={testId}
        />
      );
    default:
      return (
        <OptionSelect
          {...control}
          source={f.options}
          tree={f.kind === 'treeSelect'}
          style={{ width: f.width ?? 180 }}
          placeholder={f.placeholder}
          testId={testId}
        />
      );
  }
}
