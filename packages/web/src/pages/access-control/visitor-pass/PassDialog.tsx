import { Button, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { PrinterOutlined, StopOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ACCESS_CONTROL_ANY, visitorPassState, type VisitorPassItem } from '@gatehouse/shared';
import { DIALOG_MASK } from '../../../core/feedback.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';
import { EnumCell, useCan } from '../../../components/list-page/index.ts';
import { PageModal, PagePopconfirm } from '../../../components/PageModal.tsx';
import { IssueStatusTag } from '../cells.tsx';
import { printPass, type PrintWords } from './print.ts';
import { useQrCode } from './qr.ts';

/** A pass as the dialog shows it; issuing answers it with its QR code at once. */
export type ShownPass = VisitorPassItem & { QrDataUrl?: string };

const MINUTES = 'YYYY-MM-DD HH:mm';

interface Props {
  pass: ShownPass | null;
  onClose(): void;
  onRevoke(pass: ShownPass): Promise<unknown>;
}

/** The printed pass's words in the operator's language. */
function printWords(t: TFunction, zone: string): PrintWords {
  return {
    title: t('acUi.visitor.detailTitle'),
    hint: t('acUi.visitor.printHint'),
    card: t('accessControl.field.CardNumber'),
    host: t('accessControl.field.Host'),
    validity: t('accessControl.field.PassWindow'),
    doors: t('accessControl.field.Doors'),
    zone: t('acUi.visitor.timeZone', { zone }),
  };
}

/** What a pass is: visitor and state, company, phone, host, window with its zone, doors, its end, who issued it. */
function PassFacts({ pass, from, to }: { pass: ShownPass; from: string; to: string }) {
  const { t } = useTranslation();
  const onController = pass.Doors.filter((d) => d.IssueStatus === 3).length;
  return (
    <Descriptions column={1} size="small" className="visitor-pass-facts">
      <Descriptions.Item label={t('accessControl.field.VisitorName')}>
        <Space wrap size={6}>
          <Typography.Text strong>{pass.VisitorName}</Typography.Text>
          {/* One state, the true one: a pass whose window has not begun opens nothing yet. */}
          {pass.Upcoming ? (
            <Tag color="blue">{t('acUi.visitor.upcoming')}</Tag>
          ) : (
            <EnumCell def={visitorPassState} value={pass.State} />
          )}
        </Space>
      </Descriptions.Item>
      {pass.Company && (
        <Descriptions.Item label={t('accessControl.field.Company')}>{pass.Company}</Descriptions.Item>
      )}
      {pass.Phone && (
        <Descriptions.Item label={t('accessControl.field.Phone')}>{pass.Phone}</Descriptions.Item>
      )}
      <Descriptions.Item label={t('accessControl.field.Host')}>{pass.HostName}</Descriptions.Item>
      <Descriptions.Item label={t('accessControl.field.PassWindow')}>
        <div>
          {from} ~ {to}
        </div>
        <Typography.Text type="secondary">
          {t('acUi.visitor.timeZone', { zone: pass.TimeZone })} ·{' '}
          {t(pass.HoursOnController ? 'acUi.visitor.byProfile' : 'acUi.visitor.wholeDays')}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('accessControl.field.Doors')}>
        <Space orientation="vertical" size={2}>
          <Typography.Text type="secondary">
            {t('acUi.visitor.onController', { done: onController, total: pass.Doors.length })}
          </Typography.Text>
          {pass.Doors.map((d) => (
            <Space key={d.ChannelId} size={6}>
              <span>
                {d.DeviceName} · {d.ChannelName}
              </span>
              <IssueStatusTag value={d.IssueStatus} />
            </Space>
          ))}
        </Space>
      </Descriptions.Item>
      {pass.EndedAt && (
        <Descriptions.Item label={t('accessControl.field.EndedAt')}>
          {formatSiteTime(pass.EndedAt)}
          {pass.EndedBy ? ` · ${pass.EndedBy}` : ''}
        </Descriptions.Item>
      )}
      {pass.CreatedBy && (
        <Descriptions.Item label={t('accessControl.field.CreatedBy')}>
          {pass.CreatedBy} · {formatSiteTime(pass.CreatedAt)}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

/**
 * One pass: its QR code (the card number a reader at the door reads), the visitor and host, its window in the
 * area's time, its doors with where each stands on its controller, a print button and, while it is valid, revoke.
 */
export function PassDialog({ pass, onClose, onRevoke }: Props) {
  const { t } = useTranslation();
  const canRevoke = useCan(ACCESS_CONTROL_ANY);
  const qr = useQrCode(pass);
  const from = pass ? formatSiteTime(pass.ValidFrom, MINUTES) : '';
  const to = pass ? formatSiteTime(pass.ValidTo, MINUTES) : '';
  const print = () => pass && qr && printPass(pass, qr, { from, to }, printWords(t, pass.TimeZone));
  return (
    <PageModal
      open={pass !== null}
      title={t('acUi.visitor.detailTitle')}
      mask={DIALOG_MASK}
      destroyOnHidden
      width={640}
      onCancel={onClose}
      footer={
        <Space>
          {pass?.State === 1 && canRevoke && (
            <PagePopconfirm
              title={t('acUi.visitor.revokeConfirm')}
              okButtonProps={{ danger: true, 'data-testid': 'visitor-revoke-ok' } as never}
              onConfirm={() => pass && onRevoke(pass)}
            >
              <Button danger icon={<StopOutlined />} data-testid="visitor-revoke">
                {t('acUi.visitor.revoke')}
              </Button>
            </PagePopconfirm>
          )}
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            disabled={!qr}
            onClick={print}
            data-testid="visitor-print"
          >
            {t('acUi.visitor.print')}
          </Button>
        </Space>
      }
    >
      {pass && (
        <div className="visitor-pass" data-testid="visitor-pass">
          <div className="visitor-pass-qr">
            {qr ? (
              <img
                src={qr}
                alt={t('acUi.visitor.qrAlt', { card: pass.CardNumber })}
                data-testid="visitor-qr"
              />
            ) : (
              <Spin tip={t('acUi.visitor.qrLoading')} />
            )}
            <Typography.Text strong copyable data-testid="visitor-card">
              {pass.CardNumber}
            </Typography.Text>
          </div>
          <PassFacts pass={pass} from={from} to={to} />
        </div>
      )}
    </PageModal>
  );
}
