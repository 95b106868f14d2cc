import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** axe-core's browser bundle (a root devDependency), evaluated in the page under test. */
const AXE_SOURCE = fs.readFileSync(
  path.join(path.dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'),
  'utf8',
);

/** The rules run: WCAG 2.0 and 2.1, levels A and AA. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

/** One element one rule found at fault, with what axe measured (colour pairs for contrast). */
export interface AxeNode {
  rule: string;
  impact: Impact;
  target: string;
  html: string;
  /** color-contrast only: foreground and background as #rrggbb, and the ratio axe measured. */
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
  /** The reasons axe gave, one line each. */
  summary: string;
  /** Whether the element is rendered (axe checks only what is; cached tabs keep hidden pages). */
  visible: boolean;
}

export interface ScreenResult {
  screen: string;
  /** Rules that ran and found nothing wrong. */
  passed: number;
  violations: AxeNode[];
}

/**
 * Violations the spec's own colours force, matched by rule and the exact colour pair axe measured, so
 * nothing else can hide behind them. Each is listed with its ratio in docs/web-shell.md.
 */
export const ALLOWED: readonly {
  rule: string;
  fgColor: string;
  bgColor: string;
  ratio: number;
  spec: string;
}[] = [
  {
    rule: 'color-contrast',
    fgColor: '#ffffff',
    bgColor: '#1890ff',
    ratio: 3.24,
    spec: 'section 9 "Default theme #1890ff": white on the theme colour (primary buttons, the active tab, a switch on, the login button)',
  },
  {
    rule: 'color-contrast',
    fgColor: '#409eff',
    bgColor: '#304156',
    ratio: 3.74,
    spec: 'section 9 "Menu colours: text #bfcbd9, active #409eff, background #304156": the title of the open group holding the current page',
  },
];

export function isAllowed(node: AxeNode): boolean {
  return ALLOWED.some(
    (a) => a.rule === node.rule && a.fgColor === node.fgColor && a.bgColor === node.bgColor,
  );
}

/** The critical and serious violations of a screen that the spec does not force. */
export function blocking(result: ScreenResult): AxeNode[] {
  return result.violations.filter(
    (n) => (n.impact === 'critical' || n.impact === 'serious') && !isAllowed(n),
  );
}

/** One line per screen: rules passed, violations by impact, and how many of them the spec's colours force. */
export function countTable(results: readonly ScreenResult[]): string {
  const width = Math.max(6, ...results.map((r) => r.screen.length));
  const columns = ['passed', 'critical', 'serious', 'moderate', 'minor', 'spec colours'];
  const line = (cells: (string | number)[]) =>
    cells
      .map((c, i) => (i === 0 ? String(c).padEnd(width) : String(c).padStart(columns[i - 1]!.length)))
      .join('  ');
  const rows = results.map((r) => {
    const count = (impact: Impact) => r.violations.filter((n) => n.impact === impact && !isAllowed(n)).length;
    return line([
      r.screen,
      r.passed,
      count('critical'),
      count('serious'),
      count('moderate'),
      count('minor'),
      r.violations.filter(isAllowed).length,
    ]);
  });
  return [line(['screen', ...columns]), ...rows].join('\n');
}

/**
 * Runs axe over the document as it is on screen now. Hidden elements (cached pages kept in the DOM with
 * display:none, closed menus) are not checked by axe's rules, so only what the operator can reach counts.
 */
export async function runAxe(page: Page): Promise<Omit<ScreenResult, 'screen'>> {
  // Evaluated over the DevTools protocol: the app's Content-Security-Policy (script-src 'self') rightly
  // refuses an inline <script>, and the test must not weaken it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    interface Check {
      data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null;
    }
    interface Result {
      id: string;
      impact: string;
      nodes: {
        target: unknown[];
        html: string;
        failureSummary?: string;
        any: Check[];
        all: Check[];
        none: Check[];
      }[];
    }
    interface Axe {
      run(context: unknown, options: unknown): Promise<{ violations: Result[]; passes: Result[] }>;
    }
    const axe = (window as unknown as { axe: Axe }).axe;
    const { violations, passes } = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return {
      passed: passes.length,
      violations: violations.flatMap((v) =>
        v.nodes.map((n) => {
          const data = [...n.any, ...n.all, ...n.none].find((c) => c.data?.contrastRatio !== undefined)?.data;
          const selector = n.target.map(String).join(' ');
          const element = n.target.length === 1 ? document.querySelector(String(n.target[0])) : null;
          return {
            rule: v.id,
            impact: v.impact as Impact,
            target: selector,
            html: n.html.slice(0, 200),
            ...(data?.fgColor
              ? { fgColor: data.fgColor, bgColor: data.bgColor, contrastRatio: data.contrastRatio }
              : {}),
            summary: (n.failureSummary ?? '')
              .split('\n')
              .filter((line) => line.startsWith('  '))
              .map((line) => line.trim())
              .join('; '),
            // A target inside a frame or shadow root is not looked up; axe only names rendered elements.
            visible: element ? element.checkVisibility() : true,
          };
        }),
      ),
    };
  }, AXE_TAGS);
}
