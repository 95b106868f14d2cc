import { lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './app/router.tsx';
import { installErrorCollection } from './core/error-collection.ts';
import { detectLanguage, initI18n, loadLanguage } from './i18n/index.ts';
import { useAppStore } from './stores/app.ts';
import './styles/global.css';

// antd's toasts arrive just after the first paint; toasts asked for earlier wait for them.
const FeedbackHost = lazy(() => import('./core/FeedbackHost.tsx'));

async function start() {
  installErrorCollection();
  await initI18n();
  const language = detectLanguage();
  useAppStore.getState().setLanguage(language, await loadLanguage(language));
  // No StrictMode: keepalive-for-react cannot work under it (its cache nodes are mounted twice).
  createRoot(document.getElementById('root')!).render(
    <>
      <RouterProvider router={createAppRouter()} />
      <Suspense fallback={null}>
        <FeedbackHost />
      </Suspense>
    </>,
  );
}

void start();
