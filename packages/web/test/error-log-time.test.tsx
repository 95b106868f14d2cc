import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
await import('./support/antd-jsdom.ts');

const { useAreaStore } = await import('../src/stores/area.ts');
const { useErrorLogStore } = await import('../src/stores/error-log.ts');
const { default: ErrorLogDialog } = await import('../src/components/ErrorLogDialog.tsx');

// A browser far from the site: the error log's times follow the site like every other time on the screens.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('the error log reads in site time (issue 27)', () => {
  afterEach(cleanup);

  it("shows when an error happened on the area's clock, not the browser's", async () => {
    useAreaStore.setState({ current: { Id: 1, Name: 'A', Custom: { timezone: 'Asia/Shanghai' } } } as never);
    useErrorLogStore.setState({
      logs: [
        {
          id: 1,
          error: 'TypeError: x is undefined',
          component: 'Page',
          info: '',
          url: '/dashboard',
          stack: '',
          time: Date.parse('2026-11-29T01:02:03.000Z'),
        },
      ],
    });
    render(<ErrorLogDialog open onClose={() => undefined} />);
    // 01:02:03 UTC is 09:02:03 in Shanghai (the browser, in New York, would say 20:02:03 the day before).
    await waitFor(
      () => expect(screen.getByText(/errorLog\.time/).textContent).toBe('errorLog.time: 2026-11-29 09:02:03'),
      {
        timeout: 10_000,
      },
    );
  }, 30_000);
});
