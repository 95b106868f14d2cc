import type { CatalogueShape } from '@gatehouse/shared';
import type { apiKeyUi as zh } from '../zh/apiKeyUi.ts';

export const apiKeyUi: CatalogueShape<typeof zh> = {
  keyword: 'Name, prefix or creator',
  state: {
    active: 'Active',
    expired: 'Expired',
    revoked: 'Revoked',
  },
  revoke: 'Revoke',
  confirmRevoke: 'Revoke this API key? Systems using it are refused at once, and it cannot be restored.',
  revoked: 'Revoked: no server accepts this key any more',
  never: 'Never used',
  noExpiry: 'Never expires',
  codesHint: 'You can only give permission codes you hold yourself',
  areasHint: 'The key reaches these areas only; you can choose only areas you operate',
  expiresHint: 'Leave empty for a key that never expires; after this time its requests are refused',
  secretTitle: 'API key created',
  secretWarning:
    'Copy this key now and keep it safe. It is shown this once and cannot be shown again after you close this dialog; if it is lost, revoke it and create a new one.',
  secretUse: 'Send it with each request in the header: Authorization: Bearer <key>',
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'Could not copy automatically; select the key and copy it by hand',
  secretDone: 'I have saved the key',
  lastUsed: '{{time}} from {{address}}',
};
