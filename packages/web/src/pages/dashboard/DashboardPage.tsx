import { Suspense, lazy, useMemo } from 'react';
import { Avatar, Card, Col, Descriptions, Empty, Row, Skeleton, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { parseCustom, ACCESS_CONTROL_ANY, AreaInfoApi, BICYCLE_ANY } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { menuLeaves, routeHref } from '../../app/route-utils.ts';
import { useAreaStore } from '../../stores/area.ts';
import { useSessionStore } from '../../stores/session.ts';
import { RouteIcon } from '../../layout/route-icons.tsx';
import { canUse } from '../../components/list-page/permissions.ts';
import './dashboard.css';

/** The garage's figures and charts: their own chunk, fetched only for users of the garage. */
const GaragePanel = lazy(() => import('../garage/garage-dashboard/GaragePanel.tsx'));
/** Access control's figures: their own chunk too, fetched only for users of access control. */
const AccessControlPanel = lazy(
  () => import('../access-control/access-control-dashboard/AccessControlPanel.tsx'),
);

const KNOWN_CUSTOM = ['address', 'contact', 'timezone'] as const;

/** The current area's detail, fetched afresh whenever the content re-mounts (area switch, tab refresh). */
function AreaCard() {
  const { t } = useTranslation();
  const current = useAreaStore((s) => s.current);
  const detail = useQuery({
    queryKey: ['AreaInfo', current?.Id],
    queryFn: () => call(AreaInfoApi.get, { params: { Id: current!.Id } }),
    enabled: current !== null,
  });
  if (!current) {
    return (
      <Card title={t('dashboard.currentArea')}>
        <Empty description={t('dashboard.noArea')} />
      </Card>
    );
  }
  const custom = detail.data ? parseCustom(detail.data.Custom) : null;
  return (
    <Card title={t('dashboard.currentArea')} data-testid="dashboard-area">
      {detail.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Descriptions column={1} size="small">
          <Descriptions.Item label={t('dashboard.areaName')}>
            <strong data-testid="dashboard-area-name">{detail.data?.Name ?? current.Name}</strong>
          </Descriptions.Item>
          {KNOWN_CUSTOM.filter((key) => typeof custom?.[key] === 'string').map((key) => (
            <Descriptions.Item key={key} label={t(`dashboard.${key}`)}>
              {String(custom![key])}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Card>
  );
}

/** The welcome page: who is signed in, the current area and quick links (charts come with the modules). */
export default function DashboardPage() {
  const { t } = useTranslation();
  const name = useSessionStore((s) => s.name);
  const avatar = useSessionStore((s) => s.avatar);
  const roles = useSessionStore((s) => s.roles);
  const permitted = useSessionStore((s) => s.permitted);
  const links = useMemo(
    () =>
      menuLeaves(permitted)
        .map((chain) => chain[chain.length - 1]!)
        .filter((route) => !route.affix),
    [permitted],
  );

  return (
    <div className="dashboard" data-testid="dashboard">
      <Card className="dashboard-welcome">
        <div className="dashboard-welcome-row">
          <Avatar size={64} src={avatar || undefined} icon={<UserOutlined />} />
          <div>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('dashboard.welcome', { name })}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
              {t('dashboard.intro')}
            </Typography.Paragraph>
            <div className="dashboard-roles">
              <span>{t('dashboard.roles')}:</span>
              {roles.map((role) => (
                <Tag key={role} color="blue">
                  {role}
                </Tag>
              ))}
            </div>
          </div>
        </div>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <AreaCard />
        </Col>
        <Col xs={24} lg={14}>
          <Card title={t('dashboard.quickLinks')}>
            {links.length === 0 ? (
              <Empty description={t('dashboard.noQuickLinks')} />
            ) : (
              <div className="dashboard-links">
                {links.map((route) =>
                  route.externalUrl ? (
                    <a
                      key={route.name}
                      href={route.externalUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="dashboard-link"
                    >
                      <RouteIcon name={route.icon} />
                      <span>{t(route.titleKey)}</span>
                    </a>
                  ) : (
                    <Link
                      key={route.name}
                      to={routeHref(route)}
                      className="dashboard-link"
                      data-quick-link={route.name}
                    >
                      <RouteIcon name={route.icon} />
                      <span>{t(route.titleKey)}</span>
                    </Link>
                  ),
                )}
              </div>
            )}
          </Card>
        </Col>
      </Row>
      {canUse(roles, ACCESS_CONTROL_ANY) && (
        <Suspense fallback={null}>
          <AccessControlPanel />
        </Suspense>
      )}
      {canUse(roles, BICYCLE_ANY) && (
        <Suspense fallback={null}>
          <GaragePanel />
        </Suspense>
      )}
    </div>
  );
}
