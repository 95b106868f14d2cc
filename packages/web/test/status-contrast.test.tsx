import { cleanup, render, screen } from '@testing-library/react';
import { ConfigProvider, Tag, Typography } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { AA_TEXT, contrastRatio } from '../src/core/contrast.ts';
import { TEXT_BACKGROUNDS, themeConfig } from '../src/core/theme.ts';

/*
 * The status colours as antd paints them as text (issue 27: the authorisation list's pending figures were
 * warning orange, 1.9:1 on white): the colour the page's CSS gives each status text, read from the styles
 * antd injects under the app's theme, reaches WCAG AA (4.5:1) on every background text is written on.
 */
const STATUSES = ['success', 'warning', 'danger'] as const;

/** A CSS value with its var(--…) references resolved as the browser does: on the element or an ancestor. */
function resolve(value: string, element: HTMLElement): string {
  return value.replace(/var\((--[\w-]+)(?:,\s*([^)]*))?\)/g, (_m, name: string, fallback?: string) => {
    for (let at: HTMLElement | null = element; at; at = at.parentElement) {
      const found = getComputedStyle(at).getPropertyValue(name).trim();
      if (found) return resolve(found, at);
    }
    return fallback ?? '';
  });
}

function colourOf(element: HTMLElement): string {
  const colour = resolve(getComputedStyle(element).color, element);
  expect(colour, 'a colour the style sheet sets').toMatch(/^(#|rgb)/);
  return colour;
}

describe('status colours used for text reach AA contrast', () => {
  afterEach(cleanup);

  for (const primary of ['#1890ff', '#722ed1'])
    it(`Typography status text under theme ${primary}`, () => {
      render(
        <ConfigProvider theme={themeConfig(primary)}>
          {STATUSES.map((type) => (
            <Typography.Text key={type} type={type} data-testid={type}>
              12
            </Typography.Text>
          ))}
          <Tag color="warning" data-testid="tag-warning">
            w
          </Tag>
        </ConfigProvider>,
      );
      // A status tag writes its colour on its own pale background.
      const tag = screen.getByTestId('tag-warning');
      const background = resolve(getComputedStyle(tag).backgroundColor, tag);
      expect(contrastRatio(colourOf(tag), background), 'warning tag').toBeGreaterThanOrEqual(AA_TEXT);
      for (const type of STATUSES) {
        const colour = colourOf(screen.getByTestId(type));
        for (const background of TEXT_BACKGROUNDS)
          expect(
            contrastRatio(colour, background),
            `${type} ${colour} on ${background}`,
          ).toBeGreaterThanOrEqual(AA_TEXT);
      }
    });
});
