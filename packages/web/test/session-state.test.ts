import { beforeEach, describe, expect, it } from 'vitest';
import Cookies from 'js-cookie';
import { detectLanguage } from '../src/i18n/index.ts';
import { rememberedAreaId, useAreaStore } from '../src/stores/area.ts';
import { avatarUrl } from '../src/stores/session.ts';
import { ANTD_SIZES } from '../src/core/sizes.ts';

const areas = [
  { Id: 1, Name: 'One', Custom: '{"address":"x"}' },
  { Id: 2, Name: 'Two', Custom: 'not json' },
];

describe('areas', () => {
  beforeEach(() => {
    localStorage.clear();
    useAreaStore.getState().clear();
  });

  it('starts on the remembered area when it is still permitted', () => {
    localStorage.setItem('Aid', '2');
    expect(useAreaStore.getState().init(areas)).toBe(true);
    expect(useAreaStore.getState().current).toMatchObject({ Id: 2, Custom: null });
  });

  it('falls back to the first area, and remembers it', () => {
    localStorage.setItem('Aid', '99');
    useAreaStore.getState().init(areas);
    expect(useAreaStore.getState().current).toMatchObject({ Id: 1, Custom: { address: 'x' } });
    expect(rememberedAreaId()).toBe(1);
  });

  it('reports a user without areas', () => {
    expect(useAreaStore.getState().init([])).toBe(false);
    expect(useAreaStore.getState().current).toBeNull();
  });

  it('remembers a selected area and bumps the version that re-mounts the content', () => {
    useAreaStore.getState().init(areas);
    const version = useAreaStore.getState().version;
    useAreaStore.getState().select(areas[1]!);
    expect(localStorage.getItem('Aid')).toBe('2');
    expect(useAreaStore.getState().version).toBe(version + 1);
  });
});

describe('language detection', () => {
  it('prefers the cookie', () => {
    expect(detectLanguage('ja', ['en-US'])).toBe('ja');
  });
  it('matches the browser languages among en, zh, es, ja', () => {
    expect(detectLanguage(undefined, ['fr-FR', 'es-ES', 'en'])).toBe('es');
    expect(detectLanguage(undefined, ['zh-CN'])).toBe('zh');
  });
  it('falls back to English', () => {
    expect(detectLanguage(undefined, ['fr-FR', 'de'])).toBe('en');
    expect(detectLanguage('xx', [])).toBe('en');
  });
  it('reads the cookie the app writes', () => {
    Cookies.set('language', 'es');
    expect(detectLanguage()).toBe('es');
    Cookies.remove('language');
  });
});

describe('avatar address', () => {
  it('resolves a relative avatar against the image server', () => {
    expect(avatarUrl({ Avatar: 'a/b.png', ImageBaseUrl: 'https://img.example/' })).toBe(
      'https://img.example/a/b.png',
    );
    expect(avatarUrl({ Avatar: 'https://x/y.png', ImageBaseUrl: 'https://img.example' })).toBe(
      'https://x/y.png',
    );
    expect(avatarUrl({ Avatar: null, ImageBaseUrl: 'https://img.example' })).toBe('');
  });
});

describe('UI sizes', () => {
  it('maps four sizes onto antd with medium as the default middle size', () => {
    expect(ANTD_SIZES.default.componentSize).toBe('large');
    expect(ANTD_SIZES.medium).toEqual({ componentSize: 'middle', compact: false });
    expect(ANTD_SIZES.mini).toEqual({ componentSize: 'small', compact: true });
  });
});
