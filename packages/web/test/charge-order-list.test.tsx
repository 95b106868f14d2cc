import { cleanup, render } from '@testing-library/react';
import type { ChargeOrderItem } from '@gatehouse/shared';
import type { ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';

// The words are the catalogue keys: the test reads which labels a cell says.
const t = (key: string) => key;
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t }) }));

const { chargeOrderList } = await import('../src/pages/garage/charge-order/ChargeOrdersPage.tsx');

afterEach(cleanup);

type Render = (row: ChargeOrderItem, tr: typeof t) => ReactNode;
const stopReasonCell = (row: Partial<ChargeOrderItem>) => {
  const column = chargeOrderList.columns.find((c) => c.key === 'StopReason') as { render: Render };
  return render(<div>{column.render(row as ChargeOrderItem, t)}</div>).container;
};

// Issue 27: a forced stop's row said "forced power-off" twice (the stop reason and a "forced" tag beside it).
it('tells a forced stop once, as a red tag; any other stop reason as itself', () => {
  const forced = stopReasonCell({ StopReason: 3, Forced: true });
  expect(forced.textContent).toBe('enum.chargeStopReason.3');
  expect(forced.querySelectorAll('[data-testid="order-forced"]')).toHaveLength(1);
  cleanup();
  const byUser = stopReasonCell({ StopReason: 1, Forced: false });
  expect(byUser.textContent).toBe('enum.chargeStopReason.1');
  expect(byUser.querySelectorAll('[data-testid="order-forced"]')).toHaveLength(0);
});
