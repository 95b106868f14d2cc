import { useState, type ComponentType } from 'react';
import { Result } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PendingModule } from '../../app/route-types.ts';
import { useCurrentRoute } from '../../app/use-current-route.ts';

function ModulePending({ module }: { module: PendingModule }) {
  const { t } = useTranslation();
  // Frozen at mount: a kept-alive page must not take the title of whatever page is shown later.
  const [route] = useState(useCurrentRoute());
  const screen = route ? t(route.titleKey) : '';
  return (
    <div data-testid="module-pending" data-module={module}>
      <Result
        icon={<ClockCircleOutlined />}
        title={t('pending.title', { screen })}
        subTitle={
          <>
            <p data-testid="pending-text">
              {t('pending.text', { screen, module: t(`pending.module.${module}`) })}
            </p>
            <p>{t('pending.hint')}</p>
          </>
        }
      />
    </div>
  );
}

/** The page of a business route whose module has not landed (see app/routes.tsx, `pending`). */
export function pendingPage(module: PendingModule): ComponentType {
  const Page = () => <ModulePending module={module} />;
  Page.displayName = `Pending(${module})`;
  return Page;
}
