import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '../src/modules/access-control/card-user/import.ts';
import { checkZip } from '../src/platform/xlsx/zip-guard.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

let built: Promise<Buffer> | undefined;

/**
 * The holder template with its first sheet's XML replaced by `inflated` bytes of rows: a zip bomb (built
 * once for both databases: deflating it is the slow part).
 */
function bomb(h: Harness, token: string, inflated: number): Promise<Buffer> {
  return (built ??= buildBomb(h, token, inflated));
}

async function buildBomb(h: Harness, token: string, inflated: number): Promise<Buffer> {
  const reply = await h.app.inject({
    method: 'GET',
    url: '/api/CardUser/ImportTemplate',
    headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
  });
  const zip = await JSZip.loadAsync(reply.rawPayload);
  const row = '<row><c t="inlineStr"><is><t>王</t></is></c></row>';
  const rows = row.repeat(Math.ceil(inflated / row.length));
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

describeEachDb('holder import under a decompression bomb', (h) => {
  it('refuses a small file that inflates to 40 MB before parsing it, in well under a second', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const file = await bomb(h(), token, 40 * 1024 * 1024);
    expect(file.length).toBeLessThan(1024 * 1024);
    const started = performance.now();
    const reply = await call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      lang: 'en',
      body: { Content: file.toString('base64') },
    });
    expect(reply.status).toBe(400);
    expect(reply.msg).toContain('too large once unpacked');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('reads at most 5,000 filled rows: one more refuses the file and writes nothing', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const template = await h().app.inject({
      method: 'GET',
      url: '/api/CardUser/ImportTemplate',
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    for (let i = 0; i <= IMPORT_MAX_ROWS; i++)
      sheet.addRow(['王小明', '', '', '', '', '', '', '', '2026-01-01', '2027-01-01']);
    const holders = () =>
      h()
        .db.kysely.selectFrom('CardUser')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const before = await holders();
    const reply = await call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      lang: 'en',
      body: { Content: Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64') },
    });
    expect(reply.status).toBe(400);
    expect(reply.msg).toBe(`At most ${IMPORT_MAX_ROWS} rows can be imported at once`);
    expect(await holders()).toBe(before);
  });

  it('serves other requests while a large import is parsed', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('holders');
    sheet.addRow(['姓名*']);
    // Unknown people in a valid layout: the import refuses them row by row after parsing, which is the
    // slow part this test needs.
    for (let i = 0; i < 2000; i++) sheet.addRow([`姓名${i}`, '', 'not-an-id', '', '', '', '', '', 'x', 'y']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    const order: string[] = [];
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const importing = call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { Content: content },
    }).then(() => order.push('import'));
    await new Promise((r) => setTimeout(r, 20));
    const health = await h().app.inject({ method: 'GET', url: '/healthz' });
    order.push('health');
    expect(health.statusCode).toBe(200);
    await importing;
    delay.disable();
    expect(order).toEqual(['health', 'import']);
    // The parse ran in the worker: the event loop never stalled long (parsed here, it stalls for seconds).
    console.log(`import: longest event-loop stall ${Math.round(delay.max / 1e6)} ms`);
    expect(delay.max / 1e6).toBeLessThan(500);
  });
});

it('measures what a zip inflates to, whatever it declares', async () => {
  const zip = new JSZip();
  zip.file('a.xml', 'x'.repeat(20 * 1024 * 1024));
  const buffer = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  expect(checkZip(buffer)).toEqual({ ok: false, reason: 'tooLarge' });
  // A forged central directory that declares one byte is measured all the same.
  const forged = Buffer.from(buffer);
  const central = forged.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  forged.writeUInt32LE(1, central + 24);
  expect(checkZip(forged)).toEqual({ ok: false, reason: 'tooLarge' });
  const small = new JSZip();
  small.file('a.xml', 'x'.repeat(1000));
  expect(checkZip(await small.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))).toEqual({
    ok: true,
    totalBytes: 1000,
  });
  expect(checkZip(Buffer.from('not a zip at all'))).toEqual({ ok: false, reason: 'unreadable' });
});
