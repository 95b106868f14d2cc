import { theme, type ThemeConfig } from 'antd';
import { AA_TEXT, contrastRatio, readableShade } from './contrast.ts';

/** Where the app writes text: cards and tables, table headers and hovered rows, the layout's background. */
export const TEXT_BACKGROUNDS = ['#ffffff', '#fafafa', '#f0f2f5'] as const;

/** antd's preset tag colours (`<Tag color="gold">`); antd exports the list only from an internal module. */
const PRESET_COLOURS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const;

const defaults = theme.getDesignToken();

/**
 * Grey text that reaches WCAG AA (4.5:1) on every text background. antd's defaults do not: secondary and
 * description text (#8c8c8c, 3.4:1) and placeholders (#bfbfbf, 1.8:1). Disabled text keeps antd's grey
 * (WCAG exempts inactive controls), and icons keep theirs (they need 3:1, which #8c8c8c gives).
 */
const GREY_TEXT = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  colorIcon: defaults.colorIcon,
} as const;

/**
 * A preset tag writes its colour's 7th shade on its 1st; for gold, lime, cyan, orange… that is under
 * 4.5:1, so those tags take the first darker shade of the same palette that reaches it.
 */
const TAG_PALETTE = Object.fromEntries(
  PRESET_COLOURS.map((colour) => {
    const token = defaults as unknown as Record<string, string>;
    const background = token[`${colour}1`]!;
    const text =
      [7, 8, 9, 10]
        .map((n) => token[`${colour}${n}`]!)
        .find((c) => contrastRatio(c, background) >= AA_TEXT) ?? token[`${colour}10`]!;
    return [`${colour}7`, text];
  }),
);

/**
 * The status colours as text: on white and greys (Typography) or on their own pale background (Tag). Both
 * names of each are set: antd paints a Tag's text in `colorWarning` but Typography's `type="warning"` in
 * `colorWarningText`, which a component's `colorWarning` does not derive (issue 27: the authorisation list's
 * pending figures stayed #faad14, 1.9:1 on white).
 */
function statusText(onBackgrounds: (status: 'Success' | 'Warning' | 'Error') => readonly string[]) {
  const success = readableShade(defaults.colorSuccess, onBackgrounds('Success'));
  const warning = readableShade(defaults.colorWarning, onBackgrounds('Warning'));
  const error = readableShade(defaults.colorError, onBackgrounds('Error'));
  return {
    colorSuccess: success,
    colorSuccessText: success,
    colorWarning: warning,
    colorWarningText: warning,
    colorError: error,
    colorErrorText: error,
  };
}

/**
 * antd's theme for a theme colour (spec: default #1890ff, or a preset of the settings panel). The theme
 * colour itself stays where antd paints it as a surface (primary buttons, the active tab, switches): the
 * spec names it, so white on it is what it is (3.2:1 for #1890ff; listed in docs/web-shell.md). Where
 * antd writes it as text (links, link buttons, the selected tab, the current page, "processing" tags),
 * the text takes the theme colour's own darker shade that reaches 4.5:1 on every text background.
 */
export function themeConfig(colorPrimary: string): Pick<ThemeConfig, 'token' | 'components'> {
  const primaryText = readableShade(colorPrimary, TEXT_BACKGROUNDS);
  const primaryTextHover = readableShade(primaryText, TEXT_BACKGROUNDS, AA_TEXT + 2);
  const error = readableShade(defaults.colorError, TEXT_BACKGROUNDS);
  return {
    token: {
      colorPrimary,
      colorInfo: colorPrimary,
      colorLink: primaryText,
      colorLinkHover: primaryTextHover,
      colorLinkActive: primaryTextHover,
      // Danger buttons, form errors and error messages are red text on white: one red that reads.
      colorError: error,
      ...GREY_TEXT,
    },
    components: {
      Tabs: {
        itemSelectedColor: primaryText,
        itemHoverColor: primaryTextHover,
        itemActiveColor: primaryTextHover,
      },
      Pagination: { itemActiveColor: primaryText, itemActiveColorHover: primaryTextHover },
      // A switch that is off writes white on this grey ("disabled" in the lists): #bfbfbf gave 1.8:1.
      Switch: { colorTextQuaternary: 'rgba(0, 0, 0, 0.55)' },
      Typography: statusText(() => TEXT_BACKGROUNDS),
      Tag: {
        ...TAG_PALETTE,
        ...statusText((status) => [defaults[`color${status}Bg`]]),
        colorInfo: readableShade(primaryText, [
          theme.getDesignToken({ token: { colorPrimary } }).colorInfoBg,
        ]),
      },
    },
  };
}
