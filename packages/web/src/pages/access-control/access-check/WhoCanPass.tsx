import { useMemo } from 'react';
import { Alert, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ANY,
  AccessCheckWhoApi,
  issueStatus,
  type AccessCheckWhoItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { TwoLineCell, ValidityCell } from '../cells.tsx';
import { accessCheckAction } from './links.ts';

/**
 * The reverse question of the access check (issue 31): who can pass this door at this time, by Gatehouse's rules
 * (GET /api/AccessCheck/Who), a list like any other, exported with the same filters. A row opens the check for that
 * holder's card at the door.
 */
const checkHolder = accessCheckAction<AccessCheckWhoItem>(
  (row) => ({ CardNumber: row.CardNumbers.split(', ')[0], ChannelId: row.ChannelId }),
  (row) => row.CardNumbers !== '',
);

function whoConfig(channelId: number, at: string): ListPageConfig<AccessCheckWhoItem> {
  return {
    api: AccessCheckWhoApi,
    read: ACCESS_CONTROL_ANY,
    write: [],
    actions: { export: true },
    testId: 'access-check-who',
    fixedQuery: { ChannelId: channelId, ...(at ? { At: at } : {}) },
    filters: [
      {
        name: 'Keyword',
        label: 'adminUi.keyword',
        kind: 'text',
        placeholder: 'accessCheckUi.who.keyword',
        width: 220,
      },
    ],
    columns: [
      {
        key: 'HolderName',
        title: 'accessControl.field.HolderName',
        width: 140,
        render: (row, tr) => (
          <span>
            {row.HolderName} {row.Visitor && <Tag color="purple">{tr('accessCheckUi.who.visitor')}</Tag>}
          </span>
        ),
      },
      {
        key: 'CardNumbers',
        title: 'accessControl.field.CardNumbers',
        width: 150,
        render: (row) => <span className="ac-card-number">{row.CardNumbers}</span>,
      },
      {
        key: 'DeviceName',
        title: 'accessControl.field.DeviceName',
        width: 190,
        render: (row) => <TwoLineCell main={row.DeviceName} sub={row.ChannelName} />,
      },
      {
        key: 'IssueStatus',
        title: 'accessControl.field.IssueStatus',
        kind: 'enum',
        enumDef: issueStatus,
        width: 130,
      },
      {
        key: 'ValidTo',
        title: 'acUi.holder.validity',
        width: 170,
        render: (row) => <ValidityCell from={row.ValidFrom} to={row.ValidTo} stacked />,
      },
      {
        key: 'TimeProfileName',
        title: 'accessControl.field.TimeProfile',
        render: (row, tr) => row.TimeProfileName ?? tr('accessCheckUi.who.anyTime'),
      },
    ],
    rowActions: [checkHolder.action],
  };
}

export function WhoCanPass({ channelId, at, held }: { channelId: number; at: string; held: boolean }) {
  const { t } = useTranslation();
  checkHolder.useFollow();
  const config = useMemo(() => whoConfig(channelId, at), [channelId, at]);
  const title = at ? t('accessCheckUi.who.title', { time: at }) : t('accessCheckUi.who.titleNow');
  return (
    <ListPage
      key={`${channelId} ${at}`}
      config={config}
      title={title}
      header={
        <>
          <Typography.Title level={5}>{title}</Typography.Title>
          {held && (
            <Alert type="error" showIcon title={t('accessCheckUi.who.held')} className="access-check-held" />
          )}
        </>
      }
    />
  );
}
