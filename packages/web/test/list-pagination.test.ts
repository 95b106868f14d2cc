import { describe, expect, it } from 'vitest';
import { pagination } from '../src/components/list-page/ListPage.tsx';

const t = ((key: string, values: { total: unknown }) => `${key}:${String(values.total)}`) as never;
const items = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('list pagination and the count rule', () => {
  it('shows an exact total as it is', () => {
    const p = pagination({ index: 1, size: 20 }, { Items: items(20), Total: 345 }, t);
    expect(p.total).toBe(345);
    expect(p.showTotal()).toBe('list.total:345');
  });

  it('says "more than" for a capped total and keeps a next page, also past the cap', () => {
    const first = pagination(
      { index: 1, size: 20 },
      { Items: items(20), Total: 10_000, TotalCapped: true },
      t,
    );
    expect(first.showTotal()).toBe(`list.totalMore:${(10_000).toLocaleString()}`);
    expect(first.total).toBe(10_001);
    const deep = pagination(
      { index: 600, size: 20 },
      { Items: items(20), Total: 10_000, TotalCapped: true },
      t,
    );
    // Page 600 is full: the pager offers page 601.
    expect(deep.total).toBe(600 * 20 + 1);
  });
});
