import type { Catalogue } from '@gatehouse/shared';
import type { WebCatalogue } from './zh/index.ts';

// Typed keys: `t('route.dashboard')` is checked against the Chinese catalogues (shared and web).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalogue & WebCatalogue };
  }
}
