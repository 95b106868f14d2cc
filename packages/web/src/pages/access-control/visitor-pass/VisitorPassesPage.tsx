import { Button, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ANY,
  VisitorPassApi,
  visitorPassState,
  type VisitorPassItem,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { i18next } from '../../../i18n/index.ts';
import { ListPage, useCan, type ListPageConfig } from '../../../components/list-page/index.ts';
import { ValidityCell } from '../cells.tsx';
import { dialogState } from '../dialog-state.ts';
import { reloadList } from '../live.ts';
import { enumFilter } from '../options.ts';
import { passPeopleColumns } from './columns.tsx';
import { IssuePassDialog } from './IssuePassDialog.tsx';
import { PassDialog, type ShownPass } from './PassDialog.tsx';
import '../access-control.css';
import './visitor-pass.css';

type PassRow = VisitorPassItem;

const api = VisitorPassApi;
const issuing = dialogState<true>();
const shown = dialogState<ShownPass>();

async function revoke(pass: PassRow): Promise<PassRow> {
  const ended = await call(api.revoke, { body: { Id: pass.Id } });
  feedback.success(i18next.t('accessControl.message.passRevoked'), 4);
  return ended;
}

function IssueButton() {
  const { t } = useTranslation();
  const can = useCan(ACCESS_CONTROL_ANY);
  if (!can) return null;
  return (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => issuing.open(true)}
      data-testid="visitor-issue"
    >
      {t('acUi.visitor.issue')}
    </Button>
  );
}

/**
 * Visitor passes (Admin or User; docs/access-control.md "Visitor passes"): issue one (the server draws its card
 * number and answers with its QR code, shown at once for printing), see one with its QR code and doors, revoke
 * one with a confirmation; filtered by visitor, state and door, exported like the other lists.
 */
const config: ListPageConfig<PassRow> = {
  api,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  actions: { export: true },
  defaultSort: { field: 'CreatedAt', order: 'desc' },
  filters: [
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'acUi.visitor.keyword',
      width: 220,
    },
    enumFilter('State', 'accessControl.field.PassState', visitorPassState, 120),
  ],
  columns: [
    ...passPeopleColumns<VisitorPassItem>(true),
    {
      key: 'ValidFrom',
      title: 'accessControl.field.PassWindow',
      sort: 'ValidFrom',
      width: 190,
      render: (row) => <ValidityCell from={row.ValidFrom} to={row.ValidTo} stacked />,
    },
    {
      key: 'Doors',
      title: 'accessControl.field.Doors',
      ellipsis: true,
      render: (row) => row.Doors.map((d) => `${d.DeviceName} · ${d.ChannelName}`).join(', '),
    },
    {
      key: 'State',
      title: 'accessControl.field.PassState',
      width: 120,
      render: (row, tr) => (
        <Space size={4} wrap>
          {/* One state, the true one: a pass whose window has not begun opens nothing yet. */}
          {row.Upcoming ? (
            <Tag color="blue">{tr('acUi.visitor.upcoming')}</Tag>
          ) : (
            <Tag color={row.State === 1 ? 'green' : row.State === 3 ? 'red' : 'default'}>
              {tr(`enum.visitorPassState.${row.State}` as never)}
            </Tag>
          )}
        </Space>
      ),
    },
    { key: 'CreatedBy', title: 'accessControl.field.CreatedBy', width: 100, secondary: true },
    {
      key: 'CreatedAt',
      title: 'accessControl.field.CreatedAt',
      kind: 'instant',
      sort: 'CreatedAt',
      width: 170,
    },
  ],
  rowActions: [
    { key: 'detail', label: 'acUi.visitor.detail', codes: ACCESS_CONTROL_ANY, run: (row) => shown.open(row) },
    {
      key: 'revoke',
      label: 'acUi.visitor.revoke',
      danger: true,
      confirm: 'acUi.visitor.revokeConfirm',
      visible: (row) => row.State === 1,
      run: (row) => revoke(row),
    },
  ],
  toolbar: <IssueButton />,
};

export default function VisitorPassesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const issue = issuing.useValue();
  const pass = shown.useValue();
  const reload = () => void reloadList(queryClient, api.name);
  return (
    <>
      <ListPage config={config} title={t('route.visitorPasses')} />
      <IssuePassDialog
        open={issue !== null}
        onClose={issuing.close}
        onIssued={(issued) => {
          issuing.close();
          shown.open(issued);
          reload();
        }}
      />
      <PassDialog
        pass={pass}
        onClose={shown.close}
        onRevoke={async (p) => {
          shown.open({ ...(await revoke(p)), QrDataUrl: p.QrDataUrl });
          reload();
        }}
      />
    </>
  );
}
