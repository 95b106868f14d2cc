import {
  act,
  cleanup,
  fireEvent,
  render,
  screen,
  waitFor as waitForDom,
  within,
} from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { WebhookApi, type WebhookItem, type WebhookWithSecret } from '@gatehouse/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/*
 * Issue 29: the webhook screen lists subscriptions with their state (a subscription Gatehouse disabled after a
 * day of failures shows as failing), creates one and shows its signing secret once, and rotates the secret,
 * showing the new one once. The words are the catalogue keys.
 */

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
vi.mock('../src/i18n/index.ts', () => ({ i18next: { t: (key: string) => key } }));
vi.mock('../src/core/feedback.tsx', () => ({
  DIALOG_MASK: { closable: false },
  feedback: { success: vi.fn(), warning: vi.fn(), error: vi.fn(), info: vi.fn(), show: vi.fn() },
}));

const SECRET = 'whsec_q3Jx0lB8bYk1x9Hh2mT4nV6cP7rS5wZ0aE1dF2gH3iJ4kL5=';
const ROTATED = 'whsec_Z9Jx0lB8bYk1x9Hh2mT4nV6cP7rS5wZ0aE1dF2gH3iJ4kL5=';
const hook = (fields: Partial<WebhookItem>): WebhookItem => ({
  Id: 1,
  Url: 'https://billing.example.com/hook',
  Areas: [{ Id: 1, Name: 'A区' }],
  Events: ['socket.power_off'],
  Disabled: false,
  State: 'active',
  FailingSince: null,
  Pending: 0,
  CreatedByName: 'admin',
  CreatedAt: '2026-11-01T08:00:00.000Z',
  UpdatedAt: '2026-11-01T08:00:00.000Z',
  ...fields,
});
const created: WebhookWithSecret = { ...hook({ Id: 3, Url: 'https://new.example.com/in' }), Secret: SECRET };
let rows: WebhookItem[] = [
  hook({}),
  hook({ Id: 2, Url: 'https://down.example.com/x', Disabled: true, State: 'failing', Pending: 4 }),
];
const call = vi.fn((op: unknown, _input?: unknown) => {
  if (op === WebhookApi.create) return Promise.resolve(created);
  if (op === WebhookApi.rotateSecret) return Promise.resolve({ ...hook({}), Secret: ROTATED });
  return Promise.resolve({ Items: rows, Total: rows.length });
});
vi.mock('../src/core/api.ts', () => ({ call }));

await import('./support/antd-jsdom.ts');
const { useSessionStore } = await import('../src/stores/session.ts');
const { useAreaStore } = await import('../src/stores/area.ts');
const { default: WebhooksPage } = await import('../src/pages/system/webhook/WebhooksPage.tsx');

const waitFor = <T,>(check: () => T) => waitForDom(check, { timeout: 10_000 });

beforeAll(() => {
  useSessionStore.setState({ roles: ['SuperAdmin'] });
  useAreaStore.setState({ areas: [{ Id: 1, Name: 'A区', Custom: null }] });
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function page() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <WebhooksPage />
    </QueryClientProvider>,
  );
}

async function choose(field: string, label: string) {
  const select = screen.getByTestId(`field-${field}`);
  await act(async () => {
    fireEvent.mouseDown(within(select).getByRole('combobox'));
  });
  const option = await waitFor(() =>
    [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === label),
  );
  expect(option, `${field}: ${label}`).toBeDefined();
  await act(async () => {
    fireEvent.click(option!);
  });
}

describe('the webhook screen', () => {
  it('lists subscriptions, a failing one shown as failing', async () => {
    page();
    await waitFor(() => expect(screen.getByText('https://billing.example.com/hook')).toBeTruthy());
    expect(screen.getByTestId('webhook-state-1').textContent).toBe('webhookUi.state.active');
    expect(screen.getByTestId('webhook-state-2').textContent).toBe('webhookUi.state.failing');
  }, 30_000);

  it('creates a subscription and shows its secret once, then forgets it', async () => {
    page();
    await waitFor(() => expect(screen.getByText('https://billing.example.com/hook')).toBeTruthy());
    fireEvent.click(screen.getByTestId('list-create'));
    const url = await waitFor(() => screen.getByTestId('field-Url'));
    fireEvent.change(url, { target: { value: 'https://new.example.com/in' } });
    await choose('AreaIds', 'A区');
    await choose('Events', 'swipe.recorded');
    rows = [created, ...rows];
    await act(async () => {
      fireEvent.click(screen.getByTestId('dialog-ok'));
    });
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(WebhookApi.create, expect.anything(), { quiet: true }),
    );
    const body = (call.mock.calls.find(([op]) => op === WebhookApi.create)![1] as { body: object }).body;
    expect(body).toMatchObject({
      Url: 'https://new.example.com/in',
      AreaIds: [1],
      Events: ['swipe.recorded'],
    });
    const input = await waitFor(() => screen.getByTestId('webhook-secret') as HTMLInputElement);
    expect(input.value).toBe(SECRET);
    expect(document.querySelector('.list-page')!.textContent).not.toContain(SECRET);
    fireEvent.keyDown(input, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(screen.getByTestId('webhook-secret')).toBeTruthy();
    fireEvent.click(screen.getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  }, 30_000);
});
