import { registerDependent, rowsWhere } from '../../../platform/dependents.ts';

/** A card holder who hosted visitors cannot be deleted: the passes name them (docs/access-control.md). */
export function registerVisitorPassDependents(): void {
  registerDependent('CardUser', {
    labelKey: 'accessControl.entity.VisitorPass',
    count: rowsWhere('VisitorPass', 'HostCardUserId'),
  });
}
