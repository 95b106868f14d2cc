import type { CatalogueShape } from '@gatehouse/shared';
import type { webhookUi as zh } from '../zh/webhookUi.ts';

export const webhookUi: CatalogueShape<typeof zh> = {
  keyword: 'URL or creator',
  state: {
    active: 'Delivering',
    disabled: 'Disabled',
    failing: 'Failing, disabled',
  },
  field: {
    Url: 'URL',
    State: 'State',
    AreaIds: 'Areas',
    Events: 'Events',
    Pending: 'Waiting',
    FailingSince: 'Failing since',
    CreatedByName: 'Created by',
    CreatedAt: 'Created',
    Disabled: 'Disabled',
  },
  urlHint: 'Events are POSTed here; private, loopback and link-local addresses need WEBHOOK_ALLOW_NETWORKS',
  disabledHint:
    'A disabled subscription gets no new events; one failing for a day is disabled automatically, and enabling it retries what waits',
  rotate: 'New secret',
  confirmRotate:
    'Make a new signing secret? The old one stops at once; the receiver must verify with the new one.',
  secretTitle: 'Webhook signing secret',
  secretWarning:
    'Copy this secret now and keep it safe. It is shown this once and cannot be shown again after you close this dialog; if it is lost, make a new one.',
  secretUse: 'The receiver verifies the webhook-signature header with it (Standard Webhooks)',
  copyFailed: 'Could not copy automatically; select the secret and copy it by hand',
  secretDone: 'I have saved the secret',
};
