import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { eventually, screenshot, untranslatedKeys } from './support/app.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useSuite } from './support/suite.ts';

/*
 * Operation log complete and readable (issue 15): sign-ins, a failed one, a wrong current password, an
 * export and its download, a sign-out, and the garage and access-control entries that used to show raw keys
 * (payment.Refund, forcedPowerOff, grant, ParkOrder, PaymentState) all read as words in zh and en; the
 * object shows its name and id; the IP column is not cut.
 */
const suite = useSuite();

async function api<T>(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const response = await fetch(`${suite.server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      // A JSON content type with no body is a 400: only with a body.
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      'x-area-id': '1',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as { data: T } | null };
}

/** Entries the garage and access-control screens write, kept as the server writes them (same columns). */
function addModuleEntries() {
  const db = new Database(suite.server.databasePath);
  const insert = db.prepare(
    `INSERT INTO "AuditLog" ("At", "ActorKind", "ActorId", "UserId", "UserName", "AreaId", "Action", "Entity",
       "EntityId", "Before", "After", "Ip") VALUES (?, 'user', 1, 1, 'bikeadmin', 1, ?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  const rows: [string, string, string, unknown, unknown][] = [
    ['payment.Refund', 'ParkOrder', '41', { PaymentState: 2 }, { PaymentState: 3, Reason: '重复收费' }],
    ['payment.channel', 'ChargeOrder', '42', { PaymentState: 5 }, { PaymentState: 2, Reason: null }],
    ['forcedPowerOff', 'ChargeEquipment', '43', null, { Reason: '线路检修', Outcome: 'notSent' }],
    ['forcedPowerOff.result', 'ChargeEquipment', '43', null, { Result: 1 }],
    ['grant', 'CardUserLinkChannel', '44', null, { CardUserId: 3, ChannelId: 2, HolderName: '王小明' }],
    ['settle.correct', 'ChargeOrder', '42', { AmountCents: 300 }, { AmountCents: 250 }],
  ];
  rows.forEach(([action, entity, id, before, after], i) =>
    insert.run(
      // Newer than the sign-ins and device syncs, so they are on the first page.
      now + 60_000 - i * 1000,
      action,
      entity,
      id,
      before === null ? null : JSON.stringify(before),
      JSON.stringify(after),
      '::ffff:192.168.100.200',
    ),
  );
  db.close();
}

describe('operation log', () => {
  it('shows every entry in words, the object by name and id, and the whole address', async () => {
    // Real entries through the API: a failed sign-in, sign-ins, a wrong current password, an export, its
    // download and a sign-out.
    expect(
      (
        await api('/api/Auth/login', {
          method: 'POST',
          body: { username: 'operatorconfig', password: 'nope-Wrong1' },
        })
      ).status,
    ).toBe(400);
    const signedIn = await api<{ token: string }>('/api/Auth/login', {
      method: 'POST',
      body: { username: 'operatorconfig', password: DEMO_PASSWORD },
    });
    const token = signedIn.body!.data.token;
    const info = await api<{ Id: number }>('/api/AppUser/Info', { token });
    await api(`/api/AppUser/ModifyPassword/${info.body!.data.Id}`, {
      method: 'PATCH',
      token,
      body: { OldPassword: 'not-it-at-all', NewPassword: 'NewSecret#1' },
    });
    const job = await api<{ Id: number }>('/api/ExportJob', {
      method: 'POST',
      token,
      body: { Resource: 'OperatorStaff', Query: {} },
    });
    expect(job.status).toBe(200);
    await eventually(
      async () =>
        (await api<{ Status: string }>(`/api/ExportJob/${job.body!.data.Id}`, { token })).body?.data.Status,
    ).toBe('done');
    const file = await fetch(`${suite.server.url}/api/ExportJob/${job.body!.data.Id}/Download`, {
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    expect(file.status).toBe(200);
    expect((await api('/api/Auth/logout', { method: 'POST', token })).status).toBe(200);
    addModuleEntries();

    const raw = ['payment.Refund', 'payment_Refund', 'forcedPowerOff', 'grant', 'ParkOrder', 'PaymentState'];
    const more = ['loginFailed', 'modifyPasswordFailed', 'ExportJob', 'download', 'logout', 'AmountCents'];
    for (const language of ['zh', 'en'] as const) {
      const { page } = await suite.signedIn('superadmin', {
        language,
        width: 1440,
        at: '/systemconfig/auditlog',
      });
      const table = page.locator('[data-testid="list-AuditLog"]');
      // Device syncs fill the log too: read the entries of the two operators, one filter at a time.
      let text = '';
      for (const [user, rows] of [
        ['operatorconfig', 6],
        ['bikeadmin', 6],
      ] as const) {
        await page.locator('[data-testid="filter-UserName"]').fill(user);
        await page.locator('[data-testid="list-search"]').click();
        await eventually(async () => {
          const lines = await table.locator('.ant-table-row').allInnerTexts();
          return lines.length >= rows && lines.every((line) => line.includes(user));
        }).toBe(true);
        text += await table.innerText();
      }
      for (const key of [...raw, ...more])
        expect(text, `${language}: raw ${key}`).not.toMatch(new RegExp(`\\b${key}\\b`));
      expect(await untranslatedKeys(page)).toEqual([]);
      const words =
        language === 'zh'
          ? [
              '登录失败',
              '修改密码失败',
              '导出',
              '下载导出文件',
              '退出登录',
              '退款',
              '强制断电',
              '授权',
              '支付状态',
            ]
          : [
              'Failed sign-in',
              'Password change failed',
              'Export',
              'Download export',
              'Sign out',
              'Refund',
              'Forced power-off',
              'Grant access',
              'Payment state',
            ];
      for (const word of words) expect(text, `${language}: ${word}`).toContain(word);
      // The object by its name (issue 21: names, not '#41'): the parking order by its number (its id, 41, is
      // the number's last digits), the authorisation by its holder; no bare '#id' left.
      expect(text).toMatch(language === 'zh' ? /临停订单 PK\d{8}0*41\b/ : /Parking order PK\d{8}0*41\b/);
      expect(text).toContain(language === 'zh' ? '通道授权 王小明' : 'Channel authorisation 王小明');
      expect(text).not.toMatch(/#\d+\b/);
      // The address is shown whole, not cut by the column.
      const ip = table.locator('td', { hasText: '::ffff:192.168.100.200' }).first();
      const [scroll, client] = await ip.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scroll).toBeLessThanOrEqual(client);
      // … and in view: the table does not push it past the visible edge at 1440 px.
      const cell = (await ip.boundingBox())!;
      const box = (await table.locator('.ant-table-container').boundingBox())!;
      expect(cell.x + cell.width).toBeLessThanOrEqual(box.x + box.width + 1);
      await screenshot(page, `audit-log-${language}`);
    }
  });
});
