import { platform } from './0001-platform.ts';
import { administration } from './0002-administration.ts';
import { auditActor } from './0005-audit-actor.ts';
import { constraintsMigration } from './0009-constraints.ts';
import { ocppMigration, ocppSafetyMigration } from '../../gateways/ocpp/migration.ts';
import { wgMigration, wgSentMigration } from '../../gateways/wg/migration.ts';
import { accessControlModule } from '../../modules/access-control/index.ts';
import { garageModule } from '../../modules/garage/index.ts';
import type { PortableMigration } from './helpers.ts';

/** Applied in key order; a key is never renamed or reused once released. */
export const migrations: Record<string, PortableMigration> = {
  '0001-platform': platform,
  '0002-administration': administration,
  ...accessControlModule.migrations,
  ...garageModule.migrations,
  '0005-audit-actor': auditActor,
  '0006-ocpp': ocppMigration,
  '0007-wg': wgMigration,
  '0008-ocpp-safety': ocppSafetyMigration,
  '0009-constraints': constraintsMigration,
  '0010-wg-sent': wgSentMigration,
};
