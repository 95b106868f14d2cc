import { App, Button, Dropdown } from 'antd';
import { ColumnHeightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SIZES, type UiSize } from '@gatehouse/shared';
import { useAppStore } from '../../stores/app.ts';

/** Default, Medium, Small, Mini (see app/sizes.ts for the antd sizes behind them). */
export function SizePicker() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const size = useAppStore((s) => s.size);
  const setSize = useAppStore((s) => s.setSize);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((key) => ({ key, label: t(`size.${key}`), disabled: key === size })),
        onClick: ({ key }) => {
          setSize(key as UiSize);
          void message.success(t('message.switchSizeSuccess'));
        },
      }}
    >
      <Button
        type="text"
        aria-label={t('navbar.size')}
        title={t('navbar.size')}
        icon={<ColumnHeightOutlined />}
        data-testid="size-picker"
      />
    </Dropdown>
  );
}
