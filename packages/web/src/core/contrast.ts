/**
 * WCAG 2 colour contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), to derive text colours that
 * stay readable from whatever theme colour the operator picks. Colours are #rgb, #rrggbb or
 * rgb()/rgba(); a translucent colour is laid over its background first, as the browser paints it.
 */

type Rgb = readonly [number, number, number];
type Rgba = readonly [number, number, number, number];

function parse(color: string): Rgba {
  const value = color.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
    return [r!, g!, b!, 1];
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(value)?.[1];
  if (fn) {
    const parts = fn
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (parts.length >= 3 && parts.every((n) => Number.isFinite(n)))
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  }
  throw new Error(`Not a colour: ${color}`);
}

/** The colour as painted over an opaque background. */
function over(color: string, background: string): Rgb {
  const [r, g, b, a] = parse(color);
  const [br, bg, bb] = parse(background);
  return [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)];
}

function luminance([r, g, b]: Rgb): number {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** Contrast ratio of a text colour on an opaque background (1 to 21). */
export function contrastRatio(foreground: string, background: string): number {
  const fg = luminance(over(foreground, background));
  const bg = luminance(over(background, '#ffffff'));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}

/** WCAG 2 level AA for normal-size text. */
export const AA_TEXT = 4.5;

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The colour itself when it reaches `minimum` on every background, else the lightest darkening of it
 * (mixed with black in 1 % steps: same hue, so it still reads as that colour) that does.
 */
export function readableShade(color: string, backgrounds: readonly string[], minimum = AA_TEXT): string {
  const base = over(color, '#ffffff');
  for (let step = 0; step <= 100; step++) {
    const [r, g, b] = base.map((v) => (v * (100 - step)) / 100);
    const shade = toHex([r!, g!, b!]);
    if (backgrounds.every((bg) => contrastRatio(shade, bg) >= minimum)) return step === 0 ? color : shade;
  }
  return '#000000';
}
