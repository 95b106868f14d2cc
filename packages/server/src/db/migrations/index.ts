import { platform } from './0001-platform.ts';
import { administration } from './0002-administration.ts';
import { accessControlMigration } from '../../modules/access-control/migration.ts';
import { garageMigration } from '../../modules/garage/migration.ts';
import type { PortableMigration } from './helpers.ts';

/** Applied in key order; a key is never renamed or reused once released. */
export const migrations: Record<string, PortableMigration> = {
  '0001-platform': platform,
  '0002-administration': administration,
  '0003-access-control': accessControlMigration,
  '0004-garage': garageMigration,
};
