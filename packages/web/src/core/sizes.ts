import type { UiSize } from '@gatehouse/shared';

/**
 * The spec's four UI sizes onto antd's three component sizes. Mini is antd's small size with the
 * compact algorithm (tighter paddings and line heights), so the four steps stay distinct.
 */
export const ANTD_SIZES: Record<UiSize, { componentSize: 'large' | 'middle' | 'small'; compact: boolean }> = {
  default: { componentSize: 'large', compact: false },
  medium: { componentSize: 'middle', compact: false },
  small: { componentSize: 'small', compact: false },
  mini: { componentSize: 'small', compact: true },
};
