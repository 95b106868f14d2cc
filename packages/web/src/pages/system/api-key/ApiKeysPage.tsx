import {
  ApiKeyApi,
  PERMISSION_CODES,
  SUPER_ADMIN,
  type ApiKeyCreated,
  type ApiKeyItem,
  type ApiKeyState,
} from '@gatehouse/shared';
import { Space, Tag, Typography } from 'antd';
import { i18next } from '../../../i18n/index.ts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { ADMIN_ROLE } from '../../../core/roles.ts';
import { dialogStore } from '../../../components/dialog-store.ts';
import {
  InstantCell,
  ListPage,
  type ListPageConfig,
  type OptionSource,
} from '../../../components/list-page/index.ts';
import { useSessionStore } from '../../../stores/session.ts';
import { areaOptions } from '../../options.ts';
import { SecretDialog } from './SecretDialog.tsx';

/** The key just made, whose secret the dialog shows once. */
const keyDialogs = dialogStore<{ secret: ApiKeyCreated }>(['secret']);

const STATE_COLOURS: Record<ApiKeyState, string> = {
  active: 'success',
  expired: 'warning',
  revoked: 'default',
};

/**
 * The codes a key may be given: never more than its creator holds, as the server checks (the built-in admin
 * may give any code of the catalogue).
 */
const codeOptions: OptionSource = {
  kind: 'static',
  options: () => {
    const roles = useSessionStore.getState().roles;
    const mine = roles.includes(ADMIN_ROLE)
      ? PERMISSION_CODES
      : PERMISSION_CODES.filter((c) => roles.includes(c));
    return mine.map((code) => ({ value: code, label: code }));
  },
};

/**
 * API keys of other systems (issue 29), for the built-in admin and SuperAdmin: the list (prefix, areas, codes,
 * who made it, last use, expiry, state), the create dialog and then the secret shown once, and revocation
 * behind a confirmation. Keys are never edited: a key with other rights is a new key.
 */
const config: ListPageConfig<ApiKeyItem> = {
  api: ApiKeyApi,
  read: SUPER_ADMIN,
  write: SUPER_ADMIN,
  actions: { create: true },
  filters: [{ name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'apiKeyUi.keyword' }],
  columns: [
    { key: 'Name', title: 'admin.field.Name', sort: 'Name', width: 160 },
    {
      key: 'Prefix',
      title: 'admin.field.Prefix',
      width: 150,
      render: (row) => <Typography.Text code>{row.Prefix}…</Typography.Text>,
    },
    {
      key: 'State',
      title: 'admin.field.KeyState',
      width: 90,
      render: (row, t) => (
        <Tag color={STATE_COLOURS[row.State]} data-testid={`api-key-state-${row.Id}`}>
          {t(`apiKeyUi.state.${row.State}`)}
        </Tag>
      ),
    },
    {
      key: 'Areas',
      title: 'admin.field.AreaIds',
      render: (row) => row.Areas.map((a) => a.Name).join('、'),
    },
    {
      key: 'Codes',
      title: 'admin.field.Codes',
      render: (row) => (
        <Space size={[0, 4]} wrap>
          {row.Codes.map((code) => (
            <Tag key={code}>{code}</Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'LastUsedAt',
      title: 'admin.field.LastUsedAt',
      sort: 'LastUsedAt',
      width: 200,
      render: (row, t) =>
        row.LastUsedAt ? (
          <Space orientation="vertical" size={0}>
            <InstantCell value={row.LastUsedAt} />
            <Typography.Text type="secondary">{row.LastUsedIp}</Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('apiKeyUi.never')}</Typography.Text>
        ),
    },
    {
      key: 'ExpiresAt',
      title: 'admin.field.ExpiresAt',
      width: 170,
      render: (row, t) =>
        row.ExpiresAt ? (
          <InstantCell value={row.ExpiresAt} />
        ) : (
          <Typography.Text type="secondary">{t('apiKeyUi.noExpiry')}</Typography.Text>
        ),
    },
    { key: 'CreatedByName', title: 'admin.field.CreatedByName', width: 120 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', sort: 'CreatedAt', width: 170 },
    { key: 'RevokedAt', title: 'admin.field.RevokedAt', kind: 'instant', secondary: true },
    { key: 'RevokedByName', title: 'admin.field.RevokedByName', secondary: true },
  ],
  form: {
    width: 760,
    fields: [
      { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50, wide: true },
      {
        name: 'AreaIds',
        label: 'admin.field.AreaIds',
        kind: 'multiSelect',
        options: areaOptions,
        required: true,
        wide: true,
        extra: 'apiKeyUi.areasHint',
      },
      {
        name: 'Codes',
        label: 'admin.field.Codes',
        kind: 'multiSelect',
        options: codeOptions,
        required: true,
        wide: true,
        extra: 'apiKeyUi.codesHint',
      },
      { name: 'ExpiresAt', label: 'admin.field.ExpiresAt', kind: 'datetime', extra: 'apiKeyUi.expiresHint' },
    ],
  },
  endpoints: {
    // The reply carries the secret: it goes to the dialog that shows it once, and nowhere else.
    async create(body) {
      const created = await call(ApiKeyApi.create, { body: body as never }, { quiet: true });
      keyDialogs.open('secret', created);
      return created;
    },
  },
  rowActions: [
    {
      key: 'revoke',
      label: 'apiKeyUi.revoke',
      danger: true,
      confirm: 'apiKeyUi.confirmRevoke',
      visible: (row) => row.State !== 'revoked',
      run: async (row) => {
        await call(ApiKeyApi.revoke, { query: { Id: row.Id } });
        feedback.success(i18next.t('apiKeyUi.revoked'));
      },
    },
  ],
};

export default function ApiKeysPage() {
  const { t } = useTranslation();
  return (
    <>
      <ListPage config={config} title={t('route.apiKeys')} />
      <SecretDialog created={keyDialogs.use('secret')} onClose={() => keyDialogs.close('secret')} />
    </>
  );
}
