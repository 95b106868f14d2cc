import { App, Button, Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Lang } from '@gatehouse/shared';
import { changeLanguage, LANGUAGE_NAMES } from '../core/language.ts';
import { useAppStore } from '../stores/app.ts';

/** zh, en, es, ja; the choice is remembered in a cookie and confirmed with a message. */
export function LanguagePicker({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const language = useAppStore((s) => s.language);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((key) => ({ key, label: LANGUAGE_NAMES[key], disabled: key === language })),
        onClick: ({ key }) => {
          // i18next.t, not this render's t: the message must be in the language just chosen.
          void changeLanguage(key as Lang).then(() =>
            message.success(i18next.t('message.switchLanguageSuccess')),
          );
        },
      }}
    >
      <Button
        type="text"
        className={className}
        aria-label={t('navbar.language')}
        title={t('navbar.language')}
        icon={<TranslationOutlined />}
        data-testid="language-picker"
      />
    </Dropdown>
  );
}
