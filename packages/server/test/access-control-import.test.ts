import { citizenIdCheckChar } from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

const id18 = (first17: string) => first17 + citizenIdCheckChar(first17);
const GOOD_ID = id18('33010819850315123');
const OTHER_ID = id18('33010819921104456');

interface RowError {
  Row: number;
  Field: string;
  Message: string;
}

async function template(h: Harness, token: string, lang = 'zh') {
  const reply = await h.app.inject({
    method: 'GET',
    url: '/api/CardUser/ImportTemplate',
    headers: { authorization: `Bearer ${token}`, 'x-area-id': '1', 'accept-language': lang },
  });
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toContain('spreadsheetml');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(reply.rawPayload as unknown as ArrayBuffer);
  return workbook;
}

async function encode(workbook: ExcelJS.Workbook): Promise<string> {
  return Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
}

async function counts(h: Harness) {
  const k = h.db.kysely;
  const [holders, changes, cards] = await Promise.all([
    k.selectFrom('CardUser').select('Id').where('AreaId', '=', 1).execute(),
    k.selectFrom('ChangeRecord').select('Id').where('AreaId', '=', 1).execute(),
    k.selectFrom('Card').select('Id').where('AreaId', '=', 1).where('CardUserId', 'is not', null).execute(),
  ]);
  return { holders: holders.length, changes: changes.length, cards: cards.length };
}

describeEachDb('access control: card holder import', (h) => {
  it('offers a template with translated headers and the area’s accepted values', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const zh = await template(h(), token);
    expect((zh.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).toEqual([
      '持卡人 *',
      '手机号码',
      '身份证号',
      '民族',
      '部门',
      '人员分组',
      '人员类型',
      '卡号',
      '有效期开始 *',
      '有效期结束 *',
      '备注',
    ]);
    const notes = zh.worksheets[1]!;
    const departments = Array.from(
      { length: notes.rowCount },
      (_, i) => notes.getRow(i + 2).getCell(2).value,
    ).filter(Boolean);
    expect(departments).toContain('物业服务中心/工程维修部/强电班');
    const en = await template(h(), token, 'en');
    expect(en.worksheets[0]!.getRow(1).getCell(1).value).toBe('Card holder *');
  });

  it('imports all rows or none, reporting every bad row', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const free = await h()
      .db.kysely.selectFrom('Card')
      .select('CardNumber')
      .where('AreaId', '=', 1)
      .where('CardUserId', 'is', null)
      .orderBy('Id')
      .limit(2)
      .execute();
    const workbook = await template(h(), token, 'en');
    const sheet = workbook.worksheets[0]!;
    sheet.addRow([
      '张小明',
      '13912345678',
      GOOD_ID,
      '汉族',
      '物业服务中心/工程维修部',
      '业主',
      '常住人员',
      free[0]!.CardNumber,
      '2026-01-01',
      '2027-12-31',
      '一期业主',
    ]);
    sheet.addRow([
      'Tom',
      '123',
      `${GOOD_ID.slice(0, 17)}${GOOD_ID.endsWith('1') ? '2' : '1'}`,
      '火星族',
      '不存在的部门',
      '',
      '',
      '0000000001',
      'abc',
      '2027-01-01',
    ]);
    sheet.addRow([
      '李小红',
      '',
      OTHER_ID,
      'Hui',
      '强电班',
      '',
      '',
      String(Number(free[1]!.CardNumber)),
      new Date(Date.UTC(2026, 0, 1)),
      new Date(Date.UTC(2027, 5, 30)),
    ]);
    sheet.addRow(['王重复', '', GOOD_ID, '', '', '', '', free[0]!.CardNumber, '2026-01-01', '2026-12-31']);
    const before = await counts(h());

    const refused = await call<{ RowErrors: RowError[] }>(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { FileName: 'holders.xlsx', Content: await encode(workbook) },
    });
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe('共 4 行，其中 2 行有错误，未导入任何数据，请修改后重新导入');
    const errors = refused.data.RowErrors;
    expect([...new Set(errors.map((e) => e.Row))]).toEqual([3, 5]);
    const row3 = errors.filter((e) => e.Row === 3);
    expect(row3.map((e) => e.Field).sort()).toEqual(
      ['民族', '部门', '卡号', '有效期开始', '持卡人', '手机号码', '身份证号'].sort(),
    );
    expect(row3.find((e) => e.Field === '身份证号')!.Message).toBe('身份证号码校验不通过');
    expect(row3.find((e) => e.Field === '卡号')!.Message).toBe('卡号 0000000001 未在本区域登记');
    const row5 = errors.filter((e) => e.Row === 5).map((e) => e.Message);
    expect(row5).toEqual(
      expect.arrayContaining([`“${free[0]!.CardNumber}”与第 2 行重复`, `“${GOOD_ID}”与第 2 行重复`]),
    );
    expect(await counts(h())).toEqual(before);

    sheet.spliceRows(5, 1);
    sheet.spliceRows(3, 1);
    const imported = await call<{ Imported: number }>(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { Content: await encode(workbook) },
    });
    expect(imported.status, imported.msg).toBe(200);
    expect(imported.data.Imported).toBe(2);
    expect(await counts(h())).toEqual({
      holders: before.holders + 2,
      changes: before.changes + 2,
      cards: before.cards + 2,
    });
    const rows = await h()
      .db.kysely.selectFrom('CardUser')
      .leftJoin('Department', 'Department.Id', 'CardUser.DepartmentId')
      .select([
        'CardUser.Name',
        'CardUser.Nation',
        'Department.Name as Department',
        'CardUser.ValidFrom',
        'CardUser.ValidTo',
      ])
      .where('CardUser.CitizenId', 'in', [GOOD_ID, OTHER_ID])
      .orderBy('CardUser.Id')
      .execute();
    // Dates are the area's (Asia/Shanghai): a date alone starts at 00:00 and ends at 23:59:59.
    expect(rows).toEqual([
      {
        Name: '张小明',
        Nation: 1,
        Department: '工程维修部',
        ValidFrom: Date.UTC(2025, 11, 31, 16),
        ValidTo: Date.UTC(2027, 11, 31, 15, 59, 59),
      },
      {
        Name: '李小红',
        Nation: 3,
        Department: '强电班',
        ValidFrom: Date.UTC(2025, 11, 31, 16),
        ValidTo: Date.UTC(2027, 5, 30, 15, 59, 59),
      },
    ]);
    const again = await call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { Content: await encode(workbook) },
    });
    expect(again.status).toBe(400);
    expect(await counts(h())).toEqual({
      holders: before.holders + 2,
      changes: before.changes + 2,
      cards: before.cards + 2,
    });
  });

  it('refuses files that are not the template', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const other = new ExcelJS.Workbook();
    other.addWorksheet('x').addRow(['foo', 'bar']);
    const wrong = await call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { Content: await encode(other) },
    });
    expect(wrong.msg).toBe('文件不是持卡人导入模板，请先下载模板再填写');
    const garbage = await call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { Content: Buffer.from('not a workbook').toString('base64') },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.msg).toBe('无法读取文件，请上传 .xlsx 格式的导入模板');
    const empty = await call(h().app, 'POST', '/api/CardUser/Import', {
      token,
      area: 1,
      body: { Content: await encode(await template(h(), token)) },
    });
    expect(empty.msg).toBe('模板中没有数据');
  });
});
