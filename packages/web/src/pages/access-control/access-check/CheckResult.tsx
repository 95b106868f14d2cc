import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, List, Row, Space, Tag, Typography } from 'antd';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  QuestionCircleFilled,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ADMIN,
  AccessControlDeviceApi,
  type AccessCheckResult,
  type AccessCheckStep,
  type AccessVerdict,
} from '@gatehouse/shared';
import { useCan, type TKey } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';

/**
 * An access check's answer (issue 31): Gatehouse's side and the controller's side next to each other, each step with
 * its verdict icon and what it found in the operator's words, and where the two disagree, "sync now" for an
 * access-control administrator (the device sync's compare-then-correct pass).
 */

const ICONS: Record<AccessVerdict, ReactNode> = {
  pass: <CheckCircleFilled className="access-check-icon access-check-pass" />,
  refuse: <CloseCircleFilled className="access-check-icon access-check-refuse" />,
  warn: <ExclamationCircleFilled className="access-check-icon access-check-warn" />,
  unknown: <QuestionCircleFilled className="access-check-icon access-check-unknown" />,
};

const ALERT: Record<AccessVerdict, 'success' | 'error' | 'warning' | 'info'> = {
  pass: 'success',
  refuse: 'error',
  warn: 'warning',
  unknown: 'info',
};

const TAG: Record<AccessVerdict, string> = {
  pass: 'green',
  refuse: 'red',
  warn: 'orange',
  unknown: 'default',
};

/** A verdict as an icon with its word for screen readers (and a hover title for everyone). */
export function VerdictIcon({ verdict }: { verdict: AccessVerdict }) {
  const { t } = useTranslation();
  const word = t(`accessCheck.verdict.${verdict}`);
  return (
    <span role="img" aria-label={word} title={word} data-verdict-icon={verdict}>
      {ICONS[verdict]}
    </span>
  );
}

function Steps({ steps, titles }: { steps: AccessCheckStep[]; titles: 'step' | 'controllerStep' }) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      dataSource={steps}
      renderItem={(s) => (
        <List.Item data-step={s.Step} data-verdict={s.Verdict} data-finding={s.Finding}>
          <Space align="start">
            <VerdictIcon verdict={s.Verdict} />
            <div>
              <Typography.Text strong>{t(`accessCheck.${titles}.${s.Step}` as TKey)}</Typography.Text>
              <div className="access-check-text">{s.Text}</div>
            </div>
          </Space>
        </List.Item>
      )}
    />
  );
}

function Side(props: {
  title: string;
  side: AccessCheckResult['Server'];
  titles: 'step' | 'controllerStep';
  extra?: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  const { side } = props;
  return (
    <Card
      size="small"
      className="access-check-side"
      data-testid={props.testId}
      data-verdict={side.Verdict}
      title={
        <Space>
          <VerdictIcon verdict={side.Verdict} />
          {props.title}
          <Tag color={TAG[side.Verdict]}>{t(`accessCheck.verdict.${side.Verdict}`)}</Tag>
        </Space>
      }
      extra={props.extra}
    >
      <Alert type={ALERT[side.Verdict]} showIcon={false} title={side.Text} className="access-check-summary" />
      <Steps steps={side.Steps} titles={props.titles} />
    </Card>
  );
}

function Disagreements({ result, onSynced }: { result: AccessCheckResult; onSynced(): void }) {
  const { t } = useTranslation();
  const canSync = useCan(ACCESS_CONTROL_ADMIN);
  const [syncing, setSyncing] = useState(false);
  const sync = async () => {
    setSyncing(true);
    try {
      // A refusal (gateway off, not a WG controller) is shown by the request client with the server's message.
      await call(AccessControlDeviceApi.syncNow, { body: { Id: result.DeviceId } });
      feedback.success(t('accessCheckUi.disagree.syncStarted'));
      onSynced();
    } finally {
      setSyncing(false);
    }
  };
  const action = !result.SyncNow ? undefined : canSync ? (
    <Button type="primary" loading={syncing} onClick={() => void sync()} data-testid="access-check-sync">
      {t('accessCheckUi.disagree.syncNow')}
    </Button>
  ) : (
    <Typography.Text type="secondary">{t('accessCheckUi.disagree.adminOnly')}</Typography.Text>
  );
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="access-check-disagreements"
      title={t('accessCheckUi.disagree.title')}
      description={
        <ul className="access-check-disagreements">
          {result.Disagreements.map((d) => (
            <li key={d.Finding} data-finding={d.Finding}>
              {d.Text}
            </li>
          ))}
        </ul>
      }
      action={action}
    />
  );
}

export function CheckResult({ result, onSynced }: { result: AccessCheckResult; onSynced(): void }) {
  const { t } = useTranslation();
  const readAt = result.Controller.ReadAt;
  return (
    <div className="access-check-result" data-testid="access-check-result">
      {result.Disagreements.length > 0 && <Disagreements result={result} onSynced={onSynced} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Side
            title={t('accessCheckUi.side.server')}
            side={result.Server}
            titles="step"
            testId="access-check-server"
          />
        </Col>
        <Col xs={24} xl={12}>
          <Side
            title={`${t('accessCheckUi.side.controller')} · ${result.DeviceName}`}
            side={result.Controller}
            titles="controllerStep"
            testId="access-check-controller"
            extra={
              <Typography.Text type="secondary">
                {readAt
                  ? t('accessCheckUi.side.readAt', { time: formatSiteTime(readAt, 'HH:mm:ss') })
                  : t('accessCheckUi.side.notRead')}
              </Typography.Text>
            }
          />
        </Col>
      </Row>
    </div>
  );
}
