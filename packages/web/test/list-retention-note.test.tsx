import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { pagination, retentionNote } from '../src/components/list-page/ListPage.tsx';
import { list as en } from '../src/i18n/en/list.ts';
import { list as es } from '../src/i18n/es/list.ts';
import { list as ja } from '../src/i18n/ja/list.ts';
import { list as zh } from '../src/i18n/zh/list.ts';
import { useAreaStore } from '../src/stores/area.ts';

// The words are the catalogue keys and their values: the test reads what would be said, in any language.
const t = ((key: string, values: Record<string, unknown>) =>
  `${key}:${String(values.total ?? values.date)}`) as never;
const items = (n: number) => Array.from({ length: n }, (_, i) => i);
const inZone = (timezone: string) =>
  useAreaStore.setState({ current: { Id: 1, Name: 'A', Custom: { timezone } } } as never);

describe("a list cut by retention says so beside its total (the page's RetainedFrom)", () => {
  afterEach(() => {
    cleanup();
    useAreaStore.setState({ current: null } as never);
  });

  it('says nothing when the page carries no cutoff', () => {
    expect(retentionNote({}, t)).toBeUndefined();
    expect(retentionNote(undefined, t)).toBeUndefined();
    expect(pagination({ index: 1, size: 20 }, { Items: items(3), Total: 3 }, t).showTotal()).toBe(
      'list.total:3',
    );
  });

  it('gives the cutoff as the site wall time, as every time on the screens', () => {
    const page = { RetainedFrom: '2026-10-01T00:00:00.000Z' };
    inZone('Asia/Shanghai');
    expect(retentionNote(page, t)).toBe('list.retainedFrom:2026-10-01 08:00');
    inZone('America/New_York');
    expect(retentionNote(page, t)).toBe('list.retainedFrom:2026-09-30 20:00');
  });

  it('shows the note after the exact total, and after a capped one', () => {
    inZone('Asia/Shanghai');
    const exact = pagination(
      { index: 1, size: 20 },
      { Items: items(20), Total: 345, RetainedFrom: '2026-10-01T00:00:00.000Z' },
      t,
    );
    const { container } = render(<div>{exact.showTotal()}</div>);
    expect(container.textContent).toBe('list.total:345list.retainedFrom:2026-10-01 08:00');
    expect(screen.getByTestId('list-retained-from').textContent).toBe('list.retainedFrom:2026-10-01 08:00');
    cleanup();
    const capped = pagination(
      { index: 1, size: 20 },
      { Items: items(20), Total: 10_000, TotalCapped: true, RetainedFrom: '2026-10-01T00:00:00.000Z' },
      t,
    );
    render(<div>{capped.showTotal()}</div>);
    expect(screen.getByTestId('list-retained-from').textContent).toBe('list.retainedFrom:2026-10-01 08:00');
  });

  it('has the words in every language, each naming the date', () => {
    for (const catalogue of [zh, en, es, ja]) expect(catalogue.retainedFrom).toContain('{{date}}');
  });
});
