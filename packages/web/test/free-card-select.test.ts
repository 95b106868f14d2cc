import { describe, expect, it } from 'vitest';
import { noCardText } from '../src/pages/access-control/card-user/FreeCardSelect.tsx';
import { en } from '../src/i18n/en/index.ts';
import { zh } from '../src/i18n/zh/index.ts';

function translator(catalogue: typeof zh | typeof en) {
  return (key: string, options?: Record<string, unknown>) => {
    const text = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
    return String(text).replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(options?.[name]));
  };
}

describe('a card number typed in the holder dialog', () => {
  it('explains that cards are registered by a SuperAdmin and assigned to the area', () => {
    expect(noCardText(' 0012345678 ', translator(en))).toBe(
      'No free card numbered 0012345678. Cards are registered by a SuperAdmin (Card registration) and assigned to this area before they can be chosen here; cards held by another holder do not appear either.',
    );
    expect(noCardText('0012345678', translator(zh))).toContain('超级管理员');
  });

  it('says only that no card is free when nothing is typed', () => {
    expect(noCardText('', translator(en))).toBe(en.acUi.holder.noFreeCard);
  });
});
