import { Button, Card, Space, Table, Tag, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { doorAlarmKind, type DoorAlarmItem } from '@gatehouse/shared';
import { EnumCell, type TKey } from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';

/** The open alarms' columns, the last one a button to acknowledge the alarm. */
function alarmColumns(
  t: (key: TKey, o?: Record<string, unknown>) => string,
  onAcknowledge: (alarm: DoorAlarmItem) => void,
): ColumnsType<DoorAlarmItem> {
  return [
    {
      title: t('accessControl.field.RaisedAt'),
      dataIndex: 'RaisedAt',
      width: 170,
      render: (v: string) => formatSiteTime(v),
    },
    {
      title: t('accessControl.field.AlarmKind'),
      dataIndex: 'Kind',
      width: 230,
      // Waiting for an operator is not still going on: a door that closed again says so.
      render: (v: number, a) => (
        <Space size={4} wrap>
          <EnumCell def={doorAlarmKind} value={v} />
          {a.ClearedAt && (
            <Tag color="green" data-cleared={a.ClearedAt}>
              {t('acUi.monitor.over', { time: formatSiteTime(a.ClearedAt, 'HH:mm:ss') })}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      title: t('accessControl.field.DeviceName'),
      dataIndex: 'DeviceName',
      render: (_: unknown, a) =>
        `${a.DeviceName}${a.DoorNumber > 0 ? ` · ${a.DoorName ?? a.DoorNumber}` : ''}`,
    },
    { title: t('accessControl.field.AlarmCount'), dataIndex: 'Count', width: 70 },
    { title: t('accessControl.field.AlarmDetail'), dataIndex: 'Detail', ellipsis: true },
    {
      title: '',
      key: 'ack',
      width: 110,
      render: (_: unknown, a) => (
        <Button size="small" type="primary" onClick={() => onAcknowledge(a)} data-testid={`ack-${a.Id}`}>
          {t('acUi.monitor.acknowledge')}
        </Button>
      ),
    },
  ];
}

/** The alarms waiting for an operator, with their count in the title. */
export function OpenAlarms({
  alarms,
  loading,
  onAcknowledge,
}: {
  alarms: DoorAlarmItem[];
  loading: boolean;
  onAcknowledge(alarm: DoorAlarmItem): void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Card
      size="small"
      title={
        <Space>
          {t('acUi.monitor.openAlarms')}
          <Tag color={alarms.length ? 'red' : 'default'} data-testid="open-alarm-count">
            {alarms.length}
          </Tag>
        </Space>
      }
      className="dm-alarms"
    >
      <Table<DoorAlarmItem>
        rowKey="Id"
        size="small"
        loading={loading}
        dataSource={alarms}
        pagination={false}
        locale={{
          // antd greys a table's empty text to the disabled colour (contrast 1.8): this one is information
          emptyText: <span style={{ color: token.colorTextSecondary }}>{t('acUi.monitor.noAlarms')}</span>,
        }}
        data-testid="alarm-table"
        columns={alarmColumns(t, onAcknowledge)}
      />
    </Card>
  );
}
