import { useCallback, type RefCallback } from 'react';
import type { TableRef } from 'antd';

/** The elements of an antd table that scroll: the whole table (`scroll.x`) or its body (`scroll.y`). */
const SCROLLERS = '.ant-table-content, .ant-table-body';
/** rc-table's zero-height row that copies the column titles to measure their widths. */
const MEASURE_ROW = '.ant-table-measure-row';

function scrolls(element: HTMLElement): boolean {
  return element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
}

/**
 * What antd's Table leaves out for keyboard and screen-reader users, put back on its elements (the
 * table draws them itself, so there is no prop for it):
 * - the measure row is `aria-hidden` but holds live copies of the titles, the select-all checkbox
 *   among them: Tab would land on a checkbox nobody can see. It becomes `inert`.
 * - a scroll container whose content overflows (a wide list, a fixed-height body) becomes a named,
 *   focusable region, so the part out of view can be scrolled to with the arrow keys (WCAG 2.1.1).
 * Returns the ref for the Table; it follows re-renders, new rows and resizes, and lets go on unmount.
 */
export function useAccessibleTable(label: string): RefCallback<TableRef> {
  return useCallback(
    (table: TableRef | null) => {
      const root = table?.nativeElement;
      if (!root) return;
      // Not in every environment (jsdom); without it the regions follow the rows only.
      const sizes = typeof ResizeObserver === 'function' ? new ResizeObserver(() => apply()) : null;
      function apply() {
        for (const row of root!.querySelectorAll<HTMLElement>(MEASURE_ROW)) row.inert = true;
        for (const scroller of root!.querySelectorAll<HTMLElement>(SCROLLERS)) {
          sizes?.observe(scroller);
          if (scroller.firstElementChild) sizes?.observe(scroller.firstElementChild);
          if (scrolls(scroller)) {
            scroller.tabIndex = 0;
            scroller.setAttribute('role', 'region');
            scroller.setAttribute('aria-label', label);
          } else if (scroller.hasAttribute('tabindex')) {
            scroller.removeAttribute('tabindex');
            scroller.removeAttribute('role');
            scroller.removeAttribute('aria-label');
          }
        }
      }
      // Rows, the measure row and the scrollers come and go as data loads and columns change.
      const nodes = new MutationObserver(apply);
      nodes.observe(root, { childList: true, subtree: true });
      apply();
      return () => {
        nodes.disconnect();
        sizes?.disconnect();
      };
    },
    [label],
  );
}
