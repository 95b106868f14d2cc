import { useMemo, type ReactNode } from 'react';
import { ConfigProvider, theme } from 'antd';
import { useAppStore } from '../stores/app.ts';
import { useSettingsStore } from '../stores/settings.ts';
import { DIALOG_MASK } from '../core/feedback.tsx';
import { ANTD_SIZES } from '../core/sizes.ts';
import { themeConfig } from './theme.ts';
import { usePrefersReducedMotion } from './reduced-motion.ts';

/**
 * antd configured from the stores at runtime: the theme colour as a token (no downloaded stylesheet)
 * with text colours that reach WCAG AA (`theme.ts`), the UI size, the language's locale, and dialogs that ignore backdrop clicks. Every antd subtree (the
 * layout, the public error pages, the feedback host) sits under one, so none of it is in the first
 * download: the login page is plain HTML. An operator whose system asks for less motion gets none.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const colorPrimary = useSettingsStore((s) => s.theme);
  const size = useAppStore((s) => s.size);
  const locale = useAppStore((s) => s.antdLocale);
  const { componentSize, compact } = ANTD_SIZES[size];
  const colours = useMemo(() => themeConfig(colorPrimary), [colorPrimary]);
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider
      locale={locale}
      componentSize={componentSize}
      theme={{
        ...colours,
        algorithm: compact ? theme.compactAlgorithm : undefined,
        token: { ...colours.token, motion: !reducedMotion },
      }}
      modal={{ mask: DIALOG_MASK }}
    >
      {children}
    </ConfigProvider>
  );
}
