import { z } from 'zod';
import type { JobTimings } from '../../src/platform/jobs/index.ts';
import { registerExportable } from '../../src/platform/exports/registry.ts';

/** Short job timings for the kill tests: an abandoned attempt is retried within 2 + 2×1 + 0.5 = 4.5 s. */
export function exportKillTimings(): JobTimings {
  return {
    expireSeconds: 2,
    maintenanceSeconds: 1,
    pollSeconds: 0.5,
    retryLimit: Number(process.env.RETRY_LIMIT ?? 2),
    retryDelaySeconds: 0,
  };
}

export const KILL_TEST_ROWS = [
  { Id: 1, Name: '甲' },
  { Id: 2, Name: '乙' },
  { Id: 3, Name: '丙' },
];

/**
 * An exportable list for the kill tests ("KillTest", admins only): three rows, read through `read` (the child's
 * stalls for ever, the surviving instance's answers at once).
 */
export function registerKillTest(read: () => Promise<Record<string, unknown>[]>): () => void {
  return registerExportable({
    name: 'KillTest',
    read: [],
    titleKey: 'admin.title.peopleGroup',
    columns: [{ key: 'Name', labelKey: 'admin.field.Name' }],
    query: z.object({}),
    count: async () => KILL_TEST_ROWS.length,
    rows: async () => read(),
  });
}
