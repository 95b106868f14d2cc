import { act, cleanup, fireEvent, render, screen, waitFor as waitForDom } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_DAY_SPAN } from '@gatehouse/shared';

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
// The list's page: one row whatever the query (the query is recorded).
const rows: Record<string, unknown>[] = [{ Id: 1, Name: '刘洋' }];
const list = vi.fn((_input: unknown) => Promise.resolve({ Items: rows, Total: rows.length }));
vi.mock('../src/core/api.ts', () => ({ call: (_op: unknown, input: unknown) => list(input) }));

await import('./support/antd-jsdom.ts');
const { useSessionStore } = await import('../src/stores/session.ts');
const { ListPage } = await import('../src/components/list-page/ListPage.tsx');
const { recordRange } = await import('../src/pages/access-control/record-range.ts');

const config = {
  api: { name: 'Thing', list: { method: 'GET', path: '/api/Thing' } } as never,
  read: ['thing.read'],
  write: ['thing.write'],
  columns: [{ key: 'Name' as const, title: 'list.search' as const }],
  filters: [recordRange('list.search')],
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

/** Types a range into the filter's two inputs, as an operator may (the picker does not stop typing). */
async function typeRange(from: string, to: string) {
  const [start, end] = screen.getAllByTestId('filter-Range');
  for (const [input, value] of [
    [start!, from],
    [end!, to],
  ] as const) {
    await act(async () => {
      fireEvent.mouseDown(input);
      fireEvent.focus(input);
      fireEvent.change(input, { target: { value } });
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
  }
  await act(async () => {
    fireEvent.blur(end!);
  });
}

// A slow machine: antd's first render takes seconds.
const waitFor = <T,>(check: () => T) => waitForDom(check, { timeout: 10_000 });

describe('a filter the server would refuse empties the list and stops its export (issue 27)', () => {
  beforeAll(() => useSessionStore.setState({ roles: ['thing.read'] }));
  afterEach(cleanup);

  it('shows no row under a range over the limit, and offers no export until it is fixed', async () => {
    page();
    await waitFor(() => expect(screen.getByText('刘洋')).toBeTruthy());
    expect(screen.getByTestId('list-export').hasAttribute('disabled')).toBe(false);

    await typeRange('2026-01-01', '2026-03-03'); // 62 days
    await waitFor(() =>
      expect(screen.getByText(`error.daySpanTooLong${JSON.stringify({ days: MAX_DAY_SPAN })}`)).toBeTruthy(),
    );
    // The rows of the previous range are not shown under this one, and it cannot be exported.
    expect(screen.queryByText('刘洋')).toBeNull();
    expect(screen.getByText('list.filterInvalid')).toBeTruthy();
    expect(screen.getByTestId('list-export').hasAttribute('disabled')).toBe(true);

    await typeRange('2026-01-01', '2026-03-02'); // 61 days
    await waitFor(() => expect(screen.getByTestId('list-export').hasAttribute('disabled')).toBe(false));
  }, 60_000);
});
