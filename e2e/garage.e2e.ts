import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eventually, goto, login, toasts, waitForPath } from './support/app.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useSuite } from './support/suite.ts';
import {
  choose,
  control,
  fieldErrors,
  fieldLabels,
  openCreate,
  dayFromToday,
  paymentStates,
  row,
  rowAction,
  rows,
  search,
  stepToHostWith,
  submitDialog,
  typeRange,
} from './garage-helpers.ts';

const suite = useSuite();

const tiles = (page: Page) => page.locator('[data-testid="socket-tile"]');

describe('garage screens', () => {
  it('creates a zone, a charge rule for it and a charging host with its sockets', async () => {
    const { page } = await suite.signedIn('bikeadmin', { at: '/Bicycle/parkArea' });
    await rows(page).first().waitFor();
    await openCreate(page);
    await control(page, 'field-Name').fill('E2E 测试车棚');
    await control(page, 'field-Capacity').fill('40');
    await control(page, 'field-Location').fill('测试楼北侧');
    await submitDialog(page);
    await eventually(() => toasts(page)).toContain('新增成功');
    await search(page, 'Name', 'E2E 测试车棚');
    await eventually(() => rows(page).count()).toBe(1);
    await expect(
      row(page, 'E2E 测试车棚').locator('[data-testid="zone-occupancy"]').innerText(),
    ).resolves.toContain('0 / 0');

    // The rule dialog shows the fields of the chosen charge type only.
    await goto(page, '/Bicycle/chargeRule');
    await rows(page).first().waitFor();
    await openCreate(page);
    await control(page, 'field-Name').fill('E2E 计量充电');
    await choose(page, 'field-ChargeType', '月租停车');
    await eventually(() => fieldLabels(page)).toContain('时间单位');
    expect(await fieldLabels(page)).not.toContain('免费时长（分钟）');
    expect(await fieldLabels(page)).not.toContain('临时收费类型');
    await choose(page, 'field-ChargeType', '临时充电');
    await eventually(() => fieldLabels(page)).toEqual(
      expect.arrayContaining(['临时收费类型', '免费时长（分钟）', '单笔封顶（元）']),
    );
    expect(await fieldLabels(page)).not.toContain('时间单位');
    await choose(page, 'field-TemporaryChargeType', '计量');
    await control(page, 'field-UnitPriceCents').fill('1.2');
    await eventually(() => page.locator('.ant-modal:visible').innerText()).toContain('/ 度');
    await control(page, 'field-FreeMinutes').fill('5');
    await control(page, 'field-CapCents').fill('8');
    await choose(page, 'field-ParkAreaIds', 'E2E 测试车棚');
    // Parking is never metered: the shared tariff check refuses before anything is sent.
    await choose(page, 'field-ChargeType', '临时停车');
    await submitDialog(page);
    await eventually(() => fieldErrors(page)).toContain('临时停车只能计时或按次收费');
    await choose(page, 'field-ChargeType', '临时充电');
    await submitDialog(page);
    await eventually(() => toasts(page)).toContain('新增成功');
    await search(page, 'Name', 'E2E 计量充电');
    await eventually(() => row(page, 'E2E 计量充电').innerText()).toContain('¥1.20 / 度');
    const rule = await row(page, 'E2E 计量充电').innerText();
    expect(rule).toContain('E2E 测试车棚');
    expect(rule).toContain('¥8.00');

    // A host's connection fields follow its charging system type; creating it creates its sockets.
    await goto(page, '/Bicycle/chargeHost');
    await rows(page).first().waitFor();
    await openCreate(page);
    await control(page, 'field-SerialNumber').fill('E2EHOST01');
    await control(page, 'field-Name').fill('E2E 测试主机');
    await choose(page, 'field-ParkAreaId', 'E2E 测试车棚');
    await control(page, 'field-PortCount').fill('6');
    expect(await fieldLabels(page)).not.toContain('接口地址');
    await choose(page, 'field-ChargingSystemType', '充电接口');
    await eventually(() => fieldLabels(page)).toEqual(
      expect.arrayContaining(['接口地址', '应用 ID', '接口密钥']),
    );
    await control(page, 'field-Endpoint').fill('not a url');
    await submitDialog(page);
    await eventually(() => fieldErrors(page)).toEqual(expect.arrayContaining(['网址格式错误', '不能为空']));
    await control(page, 'field-Endpoint').fill('https://api.example.com/charger');
    await control(page, 'field-Password').fill('S3cret-key');
    await submitDialog(page);
    await eventually(() => toasts(page)).toContain('新增成功');
    await search(page, 'Keyword', 'E2EHOST01');
    await eventually(() => row(page, 'E2EHOST01').innerText()).toContain('共 6（0 / 0）');

    await rowAction(row(page, 'E2EHOST01'), 'sockets').click();
    await waitForPath(page, /^\/Bicycle\/chargeEquipment\?/);
    await eventually(() => tiles(page).count()).toBe(6);
    // A charging-API host that never connected: nobody knows its sockets' state, so they read "unknown /
    // offline" (255), not idle.
    expect(await tiles(page).evaluateAll((t) => t.map((e) => e.getAttribute('data-state')))).toEqual(
      Array(6).fill('255'),
    );
    await expect(page.locator('[data-legend-state="255"]').innerText()).resolves.toContain('6');
    await expect(page.locator('[data-legend-state="0"]').innerText()).resolves.toContain('0');

    await goto(page, '/Bicycle/parkArea');
    await search(page, 'Name', 'E2E 测试车棚');
    await eventually(() =>
      row(page, 'E2E 测试车棚').locator('[data-testid="zone-occupancy"]').innerText(),
    ).toContain('0 / 6');
  });

  it('filters charging orders over the longest range and closes an unpaid one (User code: no refund)', async () => {
    const { page } = await suite.signedIn('bikeuser', { at: '/Bicycle/chargeorderRecords' });
    await rows(page).first().waitFor();
    await typeRange(page, dayFromToday(-60), dayFromToday(0));

    await choose(page, 'filter-PaymentState', '支付成功');
    await control(page, 'list-search').click();
    await eventually(async () => {
      const states = await paymentStates(page);
      return states.length > 0 && states.every((s) => s === '支付成功');
    }, 30_000).toBe(true);
    // A refund sends money back: the Admin's. The User code sees paid orders without the button.
    await expect(page.locator('.app-main [data-testid="row-Refund"]:visible').count()).resolves.toBe(0);

    await choose(page, 'filter-PaymentState', '未支付');
    await choose(page, 'filter-Open', '已结束');
    await control(page, 'list-search').click();
    await eventually(async () => {
      const states = await paymentStates(page);
      return states.length > 0 && states.every((s) => s === '未支付');
    }, 30_000).toBe(true);
    const first = rows(page).first();
    const orderNo = (
      await first.locator('td:not(.ant-table-row-expand-icon-cell)').first().innerText()
    ).trim();
    await rowAction(first, 'Close').click();
    await page.locator('[data-testid="order-action-reason"]').fill('E2E 现场免单');
    await page.locator('[data-testid="order-action-ok"]').click();
    await eventually(() => toasts(page)).toContain(`订单 ${orderNo} 现为「已关闭」`);

    await choose(page, 'filter-PaymentState', '已关闭');
    await search(page, 'OrderNo', orderNo);
    await eventually(() => rows(page).count(), 30_000).toBe(1);
    await expect(paymentStates(page)).resolves.toEqual(['已关闭']);
    await expect(row(page, orderNo).innerText()).resolves.toContain('E2E 现场免单');
    await expect(rowAction(row(page, orderNo), 'Close').count()).resolves.toBe(0);
  });

  it('refunds a paid order with a reason, then cancels the refund (Admin code)', async () => {
    const { page } = await suite.signedIn('bikeadmin', { at: '/Bicycle/chargeorderRecords' });
    await rows(page).first().waitFor();
    await choose(page, 'filter-PaymentState', '支付成功');
    await control(page, 'list-search').click();
    await eventually(async () => {
      const states = await paymentStates(page);
      return states.length > 0 && states.every((s) => s === '支付成功');
    }, 30_000).toBe(true);
    const first = rows(page).first();
    const orderNo = (
      await first.locator('td:not(.ant-table-row-expand-icon-cell)').first().innerText()
    ).trim();

    await rowAction(first, 'Refund').click();
    await page.locator('[data-testid="order-action-ok"]').click();
    await eventually(() => fieldErrors(page)).toContain('不能为空');
    await page.locator('[data-testid="order-action-reason"]').fill('E2E 重复扣费');
    await page.locator('[data-testid="order-action-ok"]').click();
    await eventually(() => toasts(page)).toContain(`订单 ${orderNo} 现为「转入退款」`);

    await control(page, 'list-reset').click();
    await search(page, 'OrderNo', orderNo);
    await eventually(() => paymentStates(page), 30_000).toEqual(['转入退款']);
    const refunded = row(page, orderNo);
    await expect(refunded.innerText()).resolves.toContain('E2E 重复扣费');
    await expect(rowAction(refunded, 'Refund').count()).resolves.toBe(0);

    await rowAction(refunded, 'CancelRefund').click();
    await page.locator('[data-testid="order-action-ok"]').click();
    await eventually(() => paymentStates(page)).toEqual(['退款关闭']);
    await expect(rowAction(row(page, orderNo), 'Refund').count()).resolves.toBe(1);
  });

  it('a power-off the host never got says so: the session runs on, its order unsettled, the socket untouched', async () => {
    // No charge point is connected in this suite (SIMULATOR=off): the charging-API hosts' sockets read
    // "unknown / offline", and their sessions (seeded as running) cannot be stopped by anyone but the device.
    const { page } = await suite.signedIn('bikeuser', { at: '/Bicycle/chargeEquipment?view=grid' });
    // Generous: the machine is shared, and the grid waits for the host list, then the host's sockets.
    await tiles(page).first().waitFor({ timeout: 60_000 });
    const running = page.locator('[data-testid="socket-tile"][data-state="255"][data-card]');
    expect(await stepToHostWith(page, running)).toBe(true);
    const summary = page.locator('[data-testid="grid-host-summary"]');
    expect(await summary.locator('[data-testid="host-online"]').innerText()).toBe('未连接');
    const tile = running.first();
    const port = await tile.getAttribute('data-port');
    const card = await tile.getAttribute('data-card');
    expect(await tile.locator('[data-testid="socket-state"]').innerText()).toBe('未知/离线');
    await tile.locator('[data-testid="socket-power-off"]').click();
    const target = await page.locator('[data-testid="power-off-target"]').innerText();
    const orderNo = /CD\d+/.exec(target)?.[0];
    expect(orderNo).toBeTruthy();

    await page.locator('[data-testid="power-off-ok"]').click();
    await eventually(() => fieldErrors(page)).toContain('不能为空');
    await page.locator('[data-testid="power-off-reason"]').fill('E2E 插座冒烟');
    await page.locator('[data-testid="power-off-ok"]').click();
    // What happened, not what was asked for: recorded, not sent, and the session goes on.
    const outcome = page.locator('[data-testid="power-off-outcome"]');
    await outcome.waitFor();
    expect(await outcome.getAttribute('data-cut')).toBe('false');
    expect(await outcome.innerText()).toBe('已记录，未下发：主机未连接。充电仍在进行，订单未结算。');
    expect(await outcome.getAttribute('class')).toContain('ant-alert-warning');
    const said = (await toasts(page)).join(' ');
    expect(said).toContain('已记录，未下发：主机未连接');
    expect(said).not.toContain('已强制断电');
    expect(await page.locator('.ant-message-notice .anticon-check-circle').count()).toBe(0);
    await page.locator('[data-testid="power-off-close"]').click();

    // The socket's shown state and its session are as before.
    const after = page.locator(`[data-testid="socket-tile"][data-port="${port}"]`);
    await page.locator('[data-testid="grid-refresh"]').click();
    await eventually(() => after.getAttribute('data-card')).toBe(card);
    expect(await after.getAttribute('data-state')).toBe('255');

    await goto(page, '/Bicycle/chargeorderRecords');
    await rows(page).first().waitFor();
    await search(page, 'OrderNo', orderNo!);
    await eventually(() => rows(page).count(), 30_000).toBe(1);
    const order = row(page, orderNo!);
    // Not settled, not forced: still charging with a running estimate.
    await expect(order.locator('[data-testid="order-forced"]').count()).resolves.toBe(0);
    const text = await order.innerText();
    expect(text).toContain('充电中');
    expect(text).toContain('预估');
    expect(text).not.toContain('强制断电');
    expect(await paymentStates(page)).toEqual(['未支付']);

    await goto(page, '/Bicycle/forcedOutageRecords');
    await rows(page).first().waitFor();
    const record = rows(page).first();
    const recorded = await record.innerText();
    expect(recorded).toContain('E2E 插座冒烟');
    expect(recorded).toContain(orderNo!);
    expect(recorded).toContain('bikeuser');
    expect(await record.locator('[data-testid="outage-result"]').getAttribute('data-result')).toBe('0');
    expect(recorded).toContain('已记录，未下发：主机未连接');
  });

  it('the User code sees the configuration screens without their write buttons', async () => {
    const { page } = await suite.signedIn('bikeuser');
    for (const path of [
      '/Bicycle/parkArea',
      '/Bicycle/chargeRule',
      '/Bicycle/chargeHost',
      '/Bicycle/chargeEquipment',
    ]) {
      await goto(page, path);
      await rows(page).first().waitFor();
      await expect(page.locator('.app-main [data-testid="list-create"]:visible').count(), path).resolves.toBe(
        0,
      );
      await expect(page.locator('.app-main [data-testid="row-edit"]:visible').count(), path).resolves.toBe(0);
      await expect(
        page.locator('.app-main [data-testid="status-switch"]:visible').count(),
        path,
      ).resolves.toBe(0);
    }
    // Vehicles and passes are desk work: both codes may register and sell.
    await goto(page, '/Bicycle/parkArea?tab=vehicles');
    await rows(page).first().waitFor();
    await expect(page.locator('.app-main [data-testid="list-create"]:visible').count()).resolves.toBe(1);
  });

  it('record lists open on the last 7 days and say so when a typed range is over 61 days', async () => {
    const { context, page } = await suite.open();
    // No live updates here (they reload the list by themselves): every request counted below is a click's.
    await context.routeWebSocket(/./, () => {});
    await login(page, 'bikeuser', DEMO_PASSWORD);
    await goto(page, '/Bicycle/chargeRecords');
    await rows(page).first().waitFor();
    const range = page.locator('.app-main .ant-picker-range:visible');
    const inputs = range.locator('input');
    await expect(inputs.nth(0).inputValue()).resolves.toBe(dayFromToday(-6));
    await expect(inputs.nth(1).inputValue()).resolves.toBe(dayFromToday(0));
    // The label says how long a range may be.
    await page
      .locator('.app-main .ant-form-item:visible', { has: page.locator('.ant-picker-range') })
      .locator('.ant-form-item-tooltip')
      .hover();
    await eventually(() => page.locator('.ant-tooltip:visible').innerText()).toBe('最长可选 61 天');

    // A typed range of 62 days is kept as typed and the field says the spec's rule; Search sends nothing.
    // (Live updates may reload the list meanwhile: requests are told apart by their first day.)
    const starts: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/ChargeRecord?'))
        starts.push(new URL(r.url()).searchParams.get('StartTime') ?? '');
    });
    const sent = (offset: number) =>
      starts.filter((s) => s === new Date(`${dayFromToday(offset)}T00:00:00+08:00`).toISOString()).length;
    await typeRange(page, dayFromToday(-61), dayFromToday(0));
    await expect(inputs.nth(0).inputValue()).resolves.toBe(dayFromToday(-61));
    const explain = page
      .locator('.app-main .list-page-filters .ant-form-item-explain-error')
      .filter({ visible: true });
    await eventually(() => explain.allInnerTexts()).toEqual(['时间范围不能超过 61 天']);
    await control(page, 'list-search').click();
    await page.waitForTimeout(300);
    expect(sent(-61)).toBe(0);
    // One of 61 days is taken and searched (Enter in the field submits), from the site's first day.
    await typeRange(page, dayFromToday(-60), dayFromToday(0));
    await eventually(() => explain.count()).toBe(0);
    await eventually(() => sent(-60)).toBe(1);
    // Search again with nothing changed, and Reset (twice): each reloads.
    await control(page, 'list-search').click();
    await eventually(() => sent(-60)).toBe(2);
    const before = sent(-6);
    await control(page, 'list-reset').click();
    await eventually(() => sent(-6)).toBe(before + 1);
    await expect(inputs.nth(0).inputValue()).resolves.toBe(dayFromToday(-6));
    await control(page, 'list-reset').click();
    await eventually(() => sent(-6)).toBe(before + 2);
  });
});
