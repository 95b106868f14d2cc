import { act, cleanup, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AntdProvider } from '../src/core/AntdProvider.tsx';

/** A system's "reduce motion" setting as the browser reports it, changed at will. */
function systemMotion(reduce: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches: reduce,
    media: '(prefers-reduced-motion: reduce)',
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  const other = window.matchMedia;
  // Other queries (antd's breakpoints) keep jsdom's answer.
  window.matchMedia = vi.fn((query: string) =>
    query === list.media ? (list as unknown as MediaQueryList) : other(query),
  );
  return {
    set(next: boolean) {
      list.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

function Motion() {
  const { token } = theme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
}

const jsdomMatchMedia = window.matchMedia;
afterEach(() => {
  cleanup();
  window.matchMedia = jsdomMatchMedia;
});

describe("antd's motion follows the system's reduce-motion setting", () => {
  it('is on by default and off for an operator who asks for less motion, followed live', () => {
    const system = systemMotion(false);
    render(
      <AntdProvider>
        <Motion />
      </AntdProvider>,
    );
    expect(screen.getByTestId('motion').textContent).toBe('true');
    act(() => system.set(true));
    expect(screen.getByTestId('motion').textContent).toBe('false');
    act(() => system.set(false));
    expect(screen.getByTestId('motion').textContent).toBe('true');
  });
});
