import { lazy, Suspense, useLayoutEffect, useState } from 'react';
import { message } from 'antd';
import { AntdProvider } from './AntdProvider.tsx';
import { feedback } from '../core/feedback.tsx';

// The reminder dialog (antd Modal) loads only when a session expires.
const LogoutReminder = lazy(() => import('./LogoutReminder.tsx'));

function Host() {
  const [api, holder] = message.useMessage();
  const [closeReminder, setCloseReminder] = useState<(() => void) | null>(null);
  useLayoutEffect(() => {
    feedback.attach(api, () => new Promise<void>((resolve) => setCloseReminder(() => resolve)));
  }, [api]);
  return (
    <>
      {holder}
      {closeReminder && (
        <Suspense fallback={null}>
          <LogoutReminder
            onClose={() => {
              closeReminder();
              setCloseReminder(null);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

/** antd's message holder and the logout reminder, themed like the rest of the app. */
export default function FeedbackHost() {
  return (
    <AntdProvider>
      <Host />
    </AntdProvider>
  );
}
