import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../src/routes.ts';
import { writeWorkbook } from '../src/platform/exports/workbook.ts';
import type { ExportColumn } from '../src/platform/exports/registry.ts';

/*
 * Exports keep money and energy as numbers (issue 27): a sheet can sum an amount column only when its cells
 * are numbers. Every declared export column of money (a field in cents, `…Cents`) or energy (in Wh, `…Wh`)
 * is written as a number of yuan or kWh with a number format showing its decimals, as durations are numbers.
 */
const exportables = routeTable.flatMap((route) => (route.exportable ? [route.exportable] : []));
const moneyOrEnergy = (c: ExportColumn) => /(Cents|Wh)$/.test(c.key);

async function cellsOf(columns: ExportColumn[], row: Record<string, unknown>) {
  const buffer = await writeWorkbook({ title: 'T', columns, rows: [row], lang: 'en' });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  return columns.map((_, i) => sheet.getRow(2).getCell(i + 1));
}

describe('money and energy in exports are numbers with a number format', () => {
  it('covers the exports that carry money and energy', () => {
    const found = exportables.flatMap((e) =>
      e.columns.filter(moneyOrEnergy).map((c) => `${e.name}.${c.key}`),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        'ChargeOrder.AmountCents',
        'ChargeOrder.EnergyWh',
        'ChargeRecord.AmountCents',
        'ChargeRecord.EnergyWh',
        'ParkOrder.AmountCents',
        'MonthlyPass.AmountCents',
        'ChargeRule.UnitPriceCents',
      ]),
    );
  });

  for (const exportable of exportables) {
    const columns = exportable.columns.filter(moneyOrEnergy);
    if (columns.length === 0) continue;
    it(`${exportable.name}: ${columns.map((c) => c.key).join(', ')}`, async () => {
      const row = Object.fromEntries(columns.map((c) => [c.key, 123_456]));
      const cells = await cellsOf(columns, row);
      columns.forEach((c, i) => {
        const cell = cells[i]!;
        const energy = c.key.endsWith('Wh');
        expect(cell.type, `${exportable.name}.${c.key}`).toBe(ExcelJS.ValueType.Number);
        expect(cell.value, `${exportable.name}.${c.key}`).toBe(energy ? 123.456 : 1234.56);
        expect(cell.numFmt, `${exportable.name}.${c.key}`).toBe(energy ? '0.000' : '0.00');
      });
      // Nothing known (an open order's amount) is an empty cell, not 0.
      const empty = await cellsOf(columns, Object.fromEntries(columns.map((c) => [c.key, null])));
      for (const cell of empty) expect(cell.type).toBe(ExcelJS.ValueType.Null);
    });
  }
});
