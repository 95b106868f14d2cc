import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Export files are written under a temporary name and renamed once complete and flushed, so the folder
 * never holds a half-written file under its final name: a process killed mid-write leaves only the
 * temporary one, which the next start removes (ExportQueue.start) because the job recorded its name.
 */
export function partialName(fileName: string): string {
  return `${fileName}.part`;
}

export async function writeExportFile(dir: string, fileName: string, data: Uint8Array): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const partial = path.join(dir, partialName(fileName));
  await fs.writeFile(partial, data);
  // Flushed before the rename (and before the job says done), so a power cut cannot leave an empty file
  // behind a finished job.
  const handle = await fs.open(partial, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  // Atomic within one folder: the final name appears complete or not at all.
  await fs.rename(partial, path.join(dir, fileName));
}

/** Removes a job's file, finished or not. */
export async function removeExportFile(dir: string, fileName: string): Promise<void> {
  await Promise.all([
    fs.rm(path.join(dir, fileName), { force: true }),
    fs.rm(path.join(dir, partialName(fileName)), { force: true }),
  ]);
}
