import { cleanup, render, screen, waitFor as waitForDom } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
// The list's page: one row whatever the query (the query is recorded).
let rows: Record<string, unknown>[] = [{ Id: 1, Name: '刘洋' }];
const list = vi.fn((_input: unknown) => Promise.resolve({ Items: rows, Total: rows.length }));
vi.mock('../src/core/api.ts', () => ({ call: (_op: unknown, input: unknown) => list(input) }));

await import('./support/antd-jsdom.ts');
const { useSessionStore } = await import('../src/stores/session.ts');
const { ListPage } = await import('../src/components/list-page/ListPage.tsx');

const config = {
  api: { name: 'Thing', list: { method: 'GET', path: '/api/Thing' } } as never,
  read: ['thing.read'],
  write: ['thing.write'],
  columns: [{ key: 'Name' as const, title: 'list.search' as const }],
  actions: { export: true },
};

function page() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ListPage config={config} title="Things" />
    </QueryClientProvider>,
  );
}

// A slow machine: antd's first render takes seconds.
const waitFor = <T,>(check: () => T) => waitForDom(check, { timeout: 10_000 });

describe('a name at its maximum length stays in its column (issue 27)', () => {
  beforeAll(() => useSessionStore.setState({ roles: ['thing.read'] }));
  afterEach(cleanup);

  it('cuts a 50-character name at the column width with an ellipsis, the whole name on hover', async () => {
    const name = '很长的名字'.repeat(10);
    expect(name).toHaveLength(50);
    rows = [{ Id: 1, Name: name }];
    page();
    // One line no wider than the column's limit, cut by CSS with an ellipsis (antd's measured ellipsis,
    // whose tooltip shows the whole text when it is cut). antd sets the single-line class in an effect after
    // the first render: on a loaded machine the text shows first (a clean-clone run failed reading it then).
    const text = await waitFor(() => {
      const shown = screen.getByText(name);
      expect(shown.classList.contains('ant-typography-ellipsis-single-line')).toBe(true);
      return shown;
    });
    expect(text.classList.contains('ant-typography-ellipsis')).toBe(true);
    expect(text.style.maxWidth).toBe('240px');
  }, 60_000);
});
