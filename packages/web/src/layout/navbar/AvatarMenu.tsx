import { Avatar, Dropdown } from 'antd';
import { CaretDownOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loginPath } from '../../app/RootGuard.tsx';
import { logout } from '../../core/auth.ts';
import { useSessionStore } from '../../stores/session.ts';

/** The avatar with its menu: profile, dashboard, log out (spec section 2). */
export function AvatarMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const name = useSessionStore((s) => s.name);
  const avatar = useSessionStore((s) => s.avatar);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'profile', label: t('navbar.profile') },
          { key: 'dashboard', label: t('navbar.dashboard') },
          { type: 'divider' },
          { key: 'logout', label: t('navbar.logOut'), danger: true },
        ],
        onClick: ({ key }) => {
          if (key === 'profile') navigate('/profile/index');
          else if (key === 'dashboard') navigate('/');
          else {
            const fullPath = location.pathname + location.search;
            void logout().then(() => navigate(loginPath(fullPath), { replace: true }));
          }
        },
      }}
    >
      <button type="button" className="avatar-wrapper" data-testid="avatar-menu" aria-label={name}>
        <Avatar shape="square" size={32} src={avatar || undefined} icon={<UserOutlined />} />
        <span className="avatar-name">{name}</span>
        <CaretDownOutlined />
      </button>
    </Dropdown>
  );
}
