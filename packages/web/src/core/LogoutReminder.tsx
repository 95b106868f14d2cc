import { Modal } from 'antd';
import { ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../stores/session.ts';
import { DIALOG_MASK } from '../core/feedback.tsx';

/**
 * The "logout reminder" of spec section 8 for body codes 401 and 402: log in again (reset the token and
 * reload; the guard then opens the login page with a redirect back) or cancel (stay on the page).
 */
export default function LogoutReminder({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={
        <span>
          <ExclamationCircleFilled style={{ color: '#faad14', marginRight: 8 }} />
          {t('request.logoutTitle')}
        </span>
      }
      mask={DIALOG_MASK}
      keyboard={false}
      closable={false}
      okText={t('request.relogin')}
      cancelText={t('request.cancel')}
      onCancel={onClose}
      onOk={() => {
        useSessionStore.getState().clear();
        window.location.reload();
      }}
      className="logout-reminder"
      width={420}
    >
      <p>{t('request.logoutMessage')}</p>
    </Modal>
  );
}
