import { Suspense, lazy } from 'react';
import { Avatar, Card, Col, Descriptions, Empty, Row, Skeleton, Tag, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { parseCustom, ACCESS_CONTROL_ANY, AreaInfoApi, BICYCLE_ANY } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { useAreaStore } from '../../stores/area.ts';
import { useSessionStore } from '../../stores/session.ts';
import { canUse } from '../../components/list-page/permissions.ts';
import { QuickLinks } from './QuickLinks.tsx';
import './dashboard.css';

/*
 * The panels are chunks of their own, fetched only for users of their module, but as soon as this page's
 * chunk runs (issue 21, item 16): lazy() alone would ask for each only when first rendered, after this page
 * rendered, one round of requests after another.
 */
const panels = {
  garage: () => import('../garage/garage-dashboard/GaragePanel.tsx'),
  accessControl: () => import('../access-control/access-control-dashboard/AccessControlPanel.tsx'),
  events: () => import('./LatestEvents.tsx'),
};
function eager<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => (pending ??= load());
}
const loadGarage = eager(panels.garage);
const loadAccessControl = eager(panels.accessControl);
const loadEvents = eager(panels.events);

/** Asks for the chunks of the panels the signed-in user may see (idempotent). */
function loadPanels(roles: readonly string[]) {
  if (canUse(roles, ACCESS_CONTROL_ANY)) {
    void loadAccessControl();
    void loadEvents();
  }
  if (canUse(roles, BICYCLE_ANY)) void loadGarage();
}
// Already when this chunk runs (prefetched with the layout at login), before the page renders.
loadPanels(useSessionStore.getState().roles);
/** The garage's figures and charts. */
const GaragePanel = lazy(loadGarage);
/** Access control's figures and open alarms. */
const AccessControlPanel = lazy(loadAccessControl);
/** The latest swipes and door events: with access control's panel. */
const LatestEvents = lazy(loadEvents);

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
    <Card size="small" title={t('dashboard.currentArea')} data-testid="dashboard-area">
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

/**
 * The operator's console (issue 21, item 4): above the fold at 1440x900, and first on a phone, the area's
 * live figures (access control: controllers, today's swipes, authorisations waiting, doors in alarm with the
 * open alarms; the garage: sockets, hosts, sessions, spaces and today's figures), then the latest events.
 * Who is signed in is one line at the top; the area's detail and the quick links are secondary, at the end.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const name = useSessionStore((s) => s.name);
  const avatar = useSessionStore((s) => s.avatar);
  const roles = useSessionStore((s) => s.roles);
  const area = useAreaStore((s) => s.current);
  const accessControl = canUse(roles, ACCESS_CONTROL_ANY);
  const garage = canUse(roles, BICYCLE_ANY);
  loadPanels(roles);

  return (
    <div className="dashboard" data-testid="dashboard">
      <div className="dashboard-head">
        <Avatar size={32} src={avatar || undefined} icon={<UserOutlined />} />
        <Typography.Text strong className="dashboard-head-name">
          {t('dashboard.welcome', { name })}
        </Typography.Text>
        {area && (
          <Tag color="blue" data-testid="dashboard-head-area">
            {area.Name}
          </Tag>
        )}
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={accessControl ? 16 : 24} className="dashboard-live">
          {accessControl && (
            <Suspense fallback={null}>
              <AccessControlPanel />
            </Suspense>
          )}
          {garage && (
            <Suspense fallback={null}>
              <GaragePanel />
            </Suspense>
          )}
        </Col>
        <Col xs={24} xl={accessControl ? 8 : 24} className="dashboard-side">
          {accessControl && (
            <Suspense fallback={null}>
              <LatestEvents />
            </Suspense>
          )}
          <AreaCard />
          <QuickLinks />
        </Col>
      </Row>
    </div>
  );
}
