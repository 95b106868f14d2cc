import { useId } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
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
}

/** The filter row above a list: one control per declared filter, Search and Reset. */
export function FilterBar({ filters, initialValues, resetValues, onSearch, onReset }: Props) {
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
      className="list-page-filters"
      data-testid="list-filters"
    >
      {filters.map((f) => (
        <Form.Item
          key={f.name}
          name={f.name}
          label={t(f.label)}
          tooltip={f.kind === 'dateRange' && f.maxDays ? t('list.maxDays', { days: f.maxDays }) : undefined}
          rules={
            f.kind === 'dateRange' && f.maxDays !== undefined
              ? [
                  {
                    // Days are not disabled in the picker: a typed range beyond them would be reverted
                    // without a word. The field says the spec's rule instead, and Search waits for it.
                    validator: (_rule, value: [Dayjs | null, Dayjs | null] | null) =>
                      rangeTooLong(value, f.maxDays ?? Infinity)
                        ? Promise.reject(new Error(t('error.daySpanTooLong', { days: f.maxDays ?? 0 })))
                        : Promise.resolve(),
                  },
                ]
              : undefined
          }
        >
          {f.kind === 'text' ? (
            <Input
              allowClear
              style={{ width: f.width ?? 180 }}
              placeholder={f.placeholder ? t(f.placeholder) : t('list.enter')}
              data-testid={`filter-${f.name}`}
            />
          ) : f.kind === 'number' ? (
            <InputNumber style={{ width: f.width ?? 140 }} data-testid={`filter-${f.name}`} />
          ) : f.kind === 'bool' ? (
            <Select
              allowClear
              style={{ width: f.width ?? 120 }}
              placeholder={t('list.choose')}
              options={[
                { value: false, label: t('enum.disabledFlag.false') },
                { value: true, label: t('enum.disabledFlag.true') },
              ]}
              data-testid={`filter-${f.name}`}
            />
          ) : f.kind === 'dateRange' ? (
            <DatePicker.RangePicker
              allowClear={!f.defaultDays}
              style={{ width: f.width ?? 260 }}
              data-testid={`filter-${f.name}`}
            />
          ) : (
            <OptionSelect
              source={f.options}
              tree={f.kind === 'treeSelect'}
              style={{ width: f.width ?? 180 }}
              placeholder={f.placeholder}
              testId={`filter-${f.name}`}
            />
          )}
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
