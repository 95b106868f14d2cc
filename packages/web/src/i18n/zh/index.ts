import { app, area, message, request, session, ui } from './app.ts';
import { errorLog, navbar, settings, size, tagsView } from './layout.ts';
import {
  authRedirect,
  dashboard,
  errorLogPage,
  errorPage,
  i18nDemo,
  icons,
  login,
  profile,
} from './pages.ts';
import { route } from './route.ts';
import { list } from './list.ts';
import { adminUi } from './adminUi.ts';
import { acUi } from './acUi.ts';
import { garageUi } from './garageUi.ts';
import { apiKeyUi } from './apiKeyUi.ts';
import { webhookUi } from './webhookUi.ts';
import { lockdownUi } from './lockdownUi.ts';
import { musterUi } from './musterUi.ts';
import { accessCheckUi } from './accessCheckUi.ts';

/** The web app's own catalogue; its shape is the reference for en, es and ja. */
export const zh = {
  app,
  ui,
  request,
  session,
  area,
  message,
  route,
  navbar,
  size,
  tagsView,
  settings,
  errorLog,
  login,
  authRedirect,
  dashboard,
  profile,
  errorPage,
  errorLogPage,
  i18nDemo,
  icons,
  list,
  adminUi,
  acUi,
  garageUi,
  apiKeyUi,
  webhookUi,
  lockdownUi,
  musterUi,
  accessCheckUi,
} as const;

export type WebCatalogue = typeof zh;
