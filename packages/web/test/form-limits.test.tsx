import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OperatorStaffApi, textMaxLength } from '@gatehouse/shared';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
await import('./support/antd-jsdom.ts');

const { FormDialog } = await import('../src/components/list-page/FormDialog.tsx');

/*
 * A name field stops at the server's limit and says how much is left (issue 27): the limit is the contract's
 * (the body schema's `max`), not a number restated in the page.
 */
describe('length-limited text fields show a counter from the contract', () => {
  afterEach(cleanup);

  it('reads the longest text of a body field from its schema', () => {
    const body = OperatorStaffApi.create.body;
    expect(textMaxLength(body, 'Name')).toBe(50);
    expect(textMaxLength(body, 'Remark')).toBe(200); // optional, nullable, trimmed
    expect(textMaxLength(body, 'StaffType')).toBeUndefined();
    expect(textMaxLength(body, 'Nothing')).toBeUndefined();
  });

  it('limits and counts a field declared without a length, by the contract', async () => {
    render(
      <FormDialog
        open
        title="T"
        item={null}
        schema={OperatorStaffApi.create.body}
        form={{ fields: [{ name: 'Name', label: 'list.search', kind: 'text' }] }}
        onClose={() => undefined}
        onSubmit={() => Promise.resolve()}
      />,
    );
    const input = await waitFor(() => screen.getByTestId('field-Name'), { timeout: 10_000 });
    expect(input.getAttribute('maxlength')).toBe('50');
    expect(document.querySelector('.ant-input-show-count-suffix')?.textContent).toBe('0 / 50');
  }, 30_000);
});
