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
import { ApiKeyApi, type ApiKeyCreated, type ApiKeyItem } from '@gatehouse/shared';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/*
 * Issue 29: an API key's secret is shown once, right after it is made, with a copy button and a warning that
 * it will not be shown again; closing the dialog forgets it. The words are the catalogue keys.
 */

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
vi.mock('../src/i18n/index.ts', () => ({ i18next: { t: (key: string) => key } }));
const success = vi.fn();
const warning = vi.fn();
vi.mock('../src/core/feedback.tsx', () => ({
  DIALOG_MASK: { closable: false },
  feedback: { success, warning, error: vi.fn(), info: vi.fn(), show: vi.fn() },
}));

const SECRET = 'ghk_q3Jx0lB8bYk1x9Hh2mT4nV6cP7rS5wZ0aE1dF2gH3iJ';
const key = (fields: Partial<ApiKeyItem>): ApiKeyItem => ({
  Id: 1,
  Name: 'billing',
  Prefix: SECRET.slice(0, 12),
  Areas: [{ Id: 1, Name: 'A区' }],
  Codes: ['Bicycle/User'],
  CreatedByName: 'admin',
  CreatedAt: '2026-11-01T08:00:00.000Z',
  ExpiresAt: null,
  LastUsedAt: null,
  LastUsedIp: null,
  RevokedAt: null,
  RevokedByName: null,
  State: 'active',
  ...fields,
});
const created: ApiKeyCreated = { ...key({ Id: 3, Name: 'directory' }), Secret: SECRET };
let rows: ApiKeyItem[] = [
  key({}),
  key({ Id: 2, Name: 'old billing', State: 'revoked', RevokedAt: '2026-11-01T09:00:00.000Z' }),
];
// The typed client: the list, the create (answering the secret) and the revoke, told apart by operation.
const call = vi.fn((op: unknown, _input?: unknown) => {
  if (op === ApiKeyApi.create) return Promise.resolve(created);
  if (op === ApiKeyApi.revoke) return Promise.resolve(key({ State: 'revoked' }));
  return Promise.resolve({ Items: rows, Total: rows.length });
});
vi.mock('../src/core/api.ts', () => ({ call }));

await import('./support/antd-jsdom.ts');
const { useSessionStore } = await import('../src/stores/session.ts');
const { useAreaStore } = await import('../src/stores/area.ts');
const { SecretDialog } = await import('../src/pages/system/api-key/SecretDialog.tsx');
const { default: ApiKeysPage } = await import('../src/pages/system/api-key/ApiKeysPage.tsx');

// A slow machine: antd's first render takes seconds.
const waitFor = <T,>(check: () => T) => waitForDom(check, { timeout: 10_000 });
const writeText = vi.fn((_text: string) => Promise.resolve());

beforeAll(() => {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  useSessionStore.setState({ roles: ['SuperAdmin', 'Bicycle/User'] });
  useAreaStore.setState({ areas: [{ Id: 1, Name: 'A区', Custom: null }] });
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('the secret dialog', () => {
  it('shows the secret once with a warning, copies it, and closes only by its own button', async () => {
    const onClose = vi.fn();
    const view = render(<SecretDialog created={created} onClose={onClose} />);
    const input = await waitFor(() => screen.getByTestId('api-key-secret') as HTMLInputElement);
    expect(input.value).toBe(SECRET);
    expect(input.readOnly).toBe(true);
    expect(screen.getByTestId('api-key-secret-warning').textContent).toContain('apiKeyUi.secretWarning');

    await act(async () => {
      fireEvent.click(screen.getByTestId('api-key-copy'));
    });
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(success).toHaveBeenCalledWith('apiKeyUi.copied');

    // No close button, and Escape does not close it: the secret is not lost by a stray key.
    expect(document.querySelector('.ant-modal-close')).toBeNull();
    fireEvent.keyDown(input, { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('api-key-secret-done'));
    expect(onClose).toHaveBeenCalledTimes(1);
    view.rerender(<SecretDialog created={null} onClose={onClose} />);
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  }, 30_000);

  it('says so when the clipboard refuses, leaving the secret to select by hand', async () => {
    writeText.mockRejectedValueOnce(new Error('denied'));
    render(<SecretDialog created={created} onClose={() => {}} />);
    await waitFor(() => screen.getByTestId('api-key-copy'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('api-key-copy'));
    });
    expect(warning).toHaveBeenCalledWith('apiKeyUi.copyFailed');
    expect((screen.getByTestId('api-key-secret') as HTMLInputElement).value).toBe(SECRET);
  }, 30_000);
});

describe('the API key screen', () => {
  function page() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <QueryClientProvider client={client}>
        <ApiKeysPage />
      </QueryClientProvider>,
    );
  }

  /** Picks an option of a select field of the open dialog by its label. */
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

  it('lists keys with revoke on the active ones only', async () => {
    page();
    await waitFor(() => expect(screen.getByText('billing')).toBeTruthy());
    expect(screen.getByTestId('api-key-state-1').textContent).toBe('apiKeyUi.state.active');
    expect(screen.getByTestId('api-key-state-2').textContent).toBe('apiKeyUi.state.revoked');
    expect(screen.getAllByTestId('row-revoke')).toHaveLength(1);
    expect(screen.queryByTestId('row-edit')).toBeNull();
    expect(screen.queryByTestId('row-delete')).toBeNull();
  }, 30_000);

  it('creates a key and shows its secret once, then forgets it', async () => {
    page();
    await waitFor(() => expect(screen.getByText('billing')).toBeTruthy());
    fireEvent.click(screen.getByTestId('list-create'));
    const name = await waitFor(() => screen.getByTestId('field-Name'));
    fireEvent.change(name, { target: { value: 'directory' } });
    await choose('AreaIds', 'A区');
    // Only codes the signed-in user holds are offered.
    await choose('Codes', 'Bicycle/User');
    const codesPopup = [...document.querySelectorAll('.ant-select-dropdown')].find((d) =>
      d.textContent?.includes('SuperAdmin'),
    )!;
    expect(
      [...codesPopup.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent).sort(),
    ).toEqual(['Bicycle/User', 'SuperAdmin']);
    rows = [created, ...rows];
    await act(async () => {
      fireEvent.click(screen.getByTestId('dialog-ok'));
    });

    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(ApiKeyApi.create, expect.anything(), { quiet: true }),
    );
    const body = (call.mock.calls.find(([op]) => op === ApiKeyApi.create)![1] as { body: object }).body;
    expect(body).toMatchObject({ Name: 'directory', AreaIds: [1], Codes: ['Bicycle/User'] });
    const input = await waitFor(() => screen.getByTestId('api-key-secret') as HTMLInputElement);
    expect(input.value).toBe(SECRET);
    // The list shows the new key by its prefix only.
    await waitFor(() => expect(screen.getByText('directory')).toBeTruthy());
    expect(document.querySelector('.list-page')!.textContent).not.toContain(SECRET);

    fireEvent.click(screen.getByTestId('api-key-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
  }, 30_000);
});
