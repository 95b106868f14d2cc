// Runs in a worker thread: parses a workbook (already size-checked) and sends back the first sheet's
// cell values, so a slow or large parse never blocks the server's event loop.
import { parentPort } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { cellValue, type SheetRequest, type SheetResult } from './cells.ts';

async function read({ buffer, columns, maxRows }: SheetRequest): Promise<SheetResult> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(buffer) as unknown as ExcelJS.Buffer);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { ok: true, rows: [] };
  const rows: SheetResult & { ok: true } = { ok: true, rows: [] };
  let filled = 0;
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells = Array.from({ length: columns }, (_, i) => cellValue(row.getCell(i + 1).value));
    const empty = cells.every((v) => v === '');
    if (!empty && r > 1 && ++filled > maxRows) return { ok: false, reason: 'tooManyRows' };
    rows.rows.push({ row: r, cells });
  }
  return rows;
}

// One request at a time (the caller queues them); the worker lives on between requests.
parentPort!.on('message', (request: SheetRequest) => {
  read(request).then(
    (result) => parentPort!.postMessage(result),
    () => parentPort!.postMessage({ ok: false, reason: 'unreadable' } satisfies SheetResult),
  );
});
