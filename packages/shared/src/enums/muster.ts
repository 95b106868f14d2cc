import { defineEnum } from './define.ts';

/** Where someone on a roll call stands (docs/access-control.md, "Occupancy and muster"): found safe, or missing. */
export const musterSafety = defineEnum('musterSafety', [
  { value: true, color: '#2E7D32' },
  { value: false, color: '#C62828' },
]);

/** Who is inside: one of the area's card holders, or a visitor on a pass. */
export const occupantKind = defineEnum('occupantKind', [{ value: false }, { value: true, color: '#1565C0' }]);
