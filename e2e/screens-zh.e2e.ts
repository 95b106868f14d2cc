import { describe, it } from 'vitest';
import { walkScreens } from './support/screen-walk.ts';
import { useSuite } from './support/suite.ts';

/**
 * The dashboard and every screen admin can open, in Chinese (the default language): no untranslated key, and a
 * screenshot of each for a person to look at (e2e/screenshots/screen-*-zh.png). The English walk, with axe, is
 * in accessibility.e2e.ts; a separate file so that the two walks run side by side.
 */
const suite = useSuite();

describe('every screen in Chinese', () => {
  it.each([1, 2] as const)(
    'the dashboard and every screen (half %i): words and screenshot',
    (half) => walkScreens(suite, 'zh', half, { axe: false }),
    240_000,
  );
});
