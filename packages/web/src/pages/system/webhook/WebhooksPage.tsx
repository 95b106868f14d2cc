import {
  CATALOGUE_EVENT_TYPES,
  SUPER_ADMIN,
  WebhookApi,
  type WebhookItem,
  type WebhookState,
  type WebhookWithSecret,
} from '@gatehouse/shared';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { dialogStore } from '../../../components/dialog-store.ts';
import { ListPage, type ListPageConfig, type OptionSource } from '../../../components/list-page/index.ts';
import { areaOptions } from '../../options.ts';
import { WebhookSecretDialog } from './WebhookSecretDialog.tsx';

/** The subscription whose secret was just made (creation or rotation), shown once. */
const secretDialogs = dialogStore<{ secret: WebhookWithSecret }>(['secret']);

const STATE_COLOURS: Record<WebhookState, string> = {
  active: 'success',
  disabled: 'default',
  failing: 'error',
};

/** The catalogue's types, named as the catalogue names them (they are what a receiver reads in `type`). */
const eventOptions: OptionSource = {
  kind: 'static',
  options: () => CATALOGUE_EVENT_TYPES.map((type) => ({ value: type, label: type })),
};

/**
 * Webhook subscriptions (issue 29, docs/integrations.md "Webhooks"), for the built-in admin and SuperAdmin: the
 * list (URL, state with "failing" when Gatehouse disabled it after a day of failures, areas, events, deliveries
 * waiting), create and edit (URL, areas, events, disabled), delete, and a new signing secret; a secret is
 * shown once, in a dialog of its own. The delivery log and replay are in the API (`/api/WebhookDelivery`).
 */
const config: ListPageConfig<WebhookItem> = {
  api: WebhookApi,
  read: SUPER_ADMIN,
  write: SUPER_ADMIN,
  actions: { create: true, edit: true, remove: true },
  filters: [{ name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'webhookUi.keyword' }],
  columns: [
    {
      key: 'Url',
      title: 'webhookUi.field.Url',
      sort: 'Url',
      render: (row) => <Typography.Text code>{row.Url}</Typography.Text>,
    },
    {
      key: 'State',
      title: 'webhookUi.field.State',
      width: 110,
      render: (row, t) => (
        <Tag color={STATE_COLOURS[row.State]} data-testid={`webhook-state-${row.Id}`}>
          {t(`webhookUi.state.${row.State}`)}
        </Tag>
      ),
    },
    {
      key: 'Areas',
      title: 'webhookUi.field.AreaIds',
      render: (row) => row.Areas.map((a) => a.Name).join('、'),
    },
    {
      key: 'Events',
      title: 'webhookUi.field.Events',
      render: (row) => (
        <Space size={[0, 4]} wrap>
          {row.Events.map((type) => (
            <Tag key={type}>{type}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'Pending', title: 'webhookUi.field.Pending', width: 100 },
    { key: 'FailingSince', title: 'webhookUi.field.FailingSince', kind: 'instant', width: 170 },
    { key: 'CreatedByName', title: 'webhookUi.field.CreatedByName', secondary: true },
    {
      key: 'CreatedAt',
      title: 'webhookUi.field.CreatedAt',
      kind: 'instant',
      sort: 'CreatedAt',
      secondary: true,
    },
  ],
  form: {
    width: 760,
    fields: [
      {
        name: 'Url',
        label: 'webhookUi.field.Url',
        kind: 'text',
        required: true,
        maxLength: 500,
        wide: true,
        extra: 'webhookUi.urlHint',
      },
      {
        name: 'AreaIds',
        label: 'webhookUi.field.AreaIds',
        kind: 'multiSelect',
        options: areaOptions,
        required: true,
        wide: true,
        fromItem: (item) => item.Areas.map((a) => a.Id),
      },
      {
        name: 'Events',
        label: 'webhookUi.field.Events',
        kind: 'multiSelect',
        options: eventOptions,
        required: true,
        wide: true,
      },
      {
        name: 'Disabled',
        label: 'webhookUi.field.Disabled',
        kind: 'switch',
        extra: 'webhookUi.disabledHint',
      },
    ],
  },
  endpoints: {
    // The reply carries the secret: it goes to the dialog that shows it once, and nowhere else.
    async create(body) {
      const created = await call(WebhookApi.create, { body: body as never }, { quiet: true });
      secretDialogs.open('secret', created);
      return created;
    },
  },
  rowActions: [
    {
      key: 'rotate',
      label: 'webhookUi.rotate',
      confirm: 'webhookUi.confirmRotate',
      run: async (row) => {
        const rotated = await call(WebhookApi.rotateSecret, { query: { Id: row.Id } }, { quiet: true });
        secretDialogs.open('secret', rotated);
      },
    },
  ],
};

export default function WebhooksPage() {
  const { t } = useTranslation();
  return (
    <>
      <ListPage config={config} title={t('route.webhooks')} />
      <WebhookSecretDialog
        created={secretDialogs.use('secret')}
        onClose={() => secretDialogs.close('secret')}
      />
    </>
  );
}
