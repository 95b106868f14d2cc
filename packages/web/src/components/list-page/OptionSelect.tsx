import { Select, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOptions } from './options.ts';
import type { FieldControlProps, Option, OptionSource, TKey } from './types.ts';

interface Props extends FieldControlProps {
  source: OptionSource | undefined;
  value?: unknown;
  onChange?: (value: unknown) => void;
  multiple?: boolean;
  tree?: boolean;
  placeholder?: TKey;
  allowClear?: boolean;
  disabled?: boolean;
  style?: React.CSSProperties;
  testId?: string;
}

function toTreeData(
  options: readonly Option[],
): { value: Option['value']; title: string; children?: ReturnType<typeof toTreeData> }[] {
  return options.map((o) => ({
    value: o.value,
    title: o.label,
    ...(o.children?.length ? { children: toTreeData(o.children) } : {}),
  }));
}

/** A select over an option source; a tree select for nested options (departments). Searchable by label. */
export function OptionSelect({
  source,
  value,
  onChange,
  multiple,
  tree,
  placeholder,
  allowClear = true,
  disabled,
  style,
  testId,
  id,
  'aria-describedby': describedBy,
}: Props) {
  const { t } = useTranslation();
  const { options, loading } = useOptions(source);
  const common = {
    value: value as never,
    onChange: onChange as never,
    allowClear,
    disabled,
    loading,
    style,
    placeholder: placeholder ? t(placeholder) : t('list.choose'),
    'data-testid': testId,
    id,
    'aria-describedby': describedBy,
  };
  if (tree) {
    return (
      <TreeSelect
        {...common}
        treeData={toTreeData(options) as never}
        treeDefaultExpandAll
        showSearch
        treeNodeFilterProp="title"
        multiple={multiple}
        popupMatchSelectWidth={false}
      />
    );
  }
  return (
    <Select
      {...common}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ optionFilterProp: 'label' }}
      options={options.map((o) => ({ value: o.value as never, label: o.label }))}
    />
  );
}
