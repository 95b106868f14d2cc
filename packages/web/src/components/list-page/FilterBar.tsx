import { Button, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { OptionSelect } from './OptionSelect.tsx';
import type { FilterValues } from './query.ts';
import type { FilterDef } from './types.ts';

interface Props {
  filters: readonly FilterDef[];
  initialValues: FilterValues;
  onSearch(values: FilterValues): void;
  onReset(): void;
}

/** The filter row above a list: one control per declared filter, Search and Reset. */
export function FilterBar({ filters, initialValues, onSearch, onReset }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  if (filters.length === 0) return null;
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={initialValues}
      onFinish={onSearch}
      className="list-page-filters"
      data-testid="list-filters"
    >
      {filters.map((f) => (
        <Form.Item key={f.name} name={f.name} label={t(f.label)}>
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
              onReset();
            }}
            data-testid="list-reset"
          >
            {t('list.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
