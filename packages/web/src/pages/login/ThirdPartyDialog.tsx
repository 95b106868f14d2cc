import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdProvider } from '../../core/AntdProvider.tsx';
import { DIALOG_MASK } from '../../core/feedback.tsx';

/** Third-party login is shown but not implemented (spec section 2). */
export default function ThirdPartyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AntdProvider>
      <Modal
        open
        title={t('login.thirdparty')}
        mask={DIALOG_MASK}
        onCancel={onClose}
        footer={
          <Button type="primary" onClick={onClose}>
            {t('ui.ok')}
          </Button>
        }
      >
        <p>{t('login.thirdpartyTips')}</p>
      </Modal>
    </AntdProvider>
  );
}
