import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(QUERY)
    : null;
}

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/**
 * Whether the operator's system asks for less motion (a setting of the OS, kept by the browser), followed live.
 * antd's own motion (dialogs zooming, drawers sliding, menus folding) is then off. No global CSS rule cuts every
 * transition short instead: antd aligns a popup (select lists, dropdowns, popconfirms) at the end of its
 * transition, and with transitions cut to nothing they stayed where they are first drawn, off screen.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}
