import { once } from 'node:events';
import type { RPCClient } from 'ocpp-rpc';
import { charge, type Battery } from './battery.ts';
import { ChargePointConnection } from './connection.ts';
import { registerRemoteCalls } from './remote-calls.ts';
import { ChargingProfiles } from './smart-charging.ts';
import { TransactionQueue, type Queued } from './transaction-queue.ts';
import type { ChargePointOptions, ConnectorState, Transaction } from './types.ts';

export type { ChargePointOptions, ConnectorState, Transaction } from './types.ts';
import type {
  AuthorizationStatus,
  ChargePointErrorCode,
  ChargePointStatus,
  IdTagInfo,
  MeterValue,
  MeterValuesReq,
  StartTransactionConf,
  StartTransactionReq,
  StatusNotificationReq,
  StopReason,
  StopTransactionReq,
  TriggerableMessage,
} from './ocpp.ts';

/**
 * One simulated OCPP 1.6J charge point with M connectors, over an ocpp-rpc client in strict mode: every call
 * it makes and every answer it gives is checked against the official 1.6 schemas before it leaves. The
 * connection, the boot and the timers are its base class's (connection.ts); its connectors and transactions
 * are here.
 *
 * Events: 'log' (text), 'status' (connectorId, status), 'boot' (conf), 'ready' (accepted, every connector
 * reported), 'online', 'offline', 'transaction' (connectorId, transactionId), 'error' never (failures are logged,
 * the simulator carries on).
 */
export class ChargePoint extends ChargePointConnection {
  readonly connectors: ConnectorState[];
  /** Transaction messages, sent in order and exactly as made, queued while they cannot go. */
  private readonly transactions: TransactionQueue;
  /** Its smart-charging limits (TxProfiles), with the `smartCharging` option only. */
  readonly profiles = new ChargingProfiles();
  private nextTxRef = 1;
  /** Status of the charge point itself (connector 0). */
  status: ChargePointStatus = 'Available';
  /** A faulty charger (tests): it accepts a remote stop and never carries it out, so no StopTransaction comes. */
  ignoreRemoteStop = false;
  /** Set by `overheat(…, 0)`: what the charger's body sensor reads (°C); undefined: the garage's 25 °C. */
  bodyTemperatureC: number | undefined;

  constructor(options: ChargePointOptions) {
    super(options);
    this.connectors = Array.from({ length: options.connectors }, (_, i) => ({
      id: i + 1,
      status: 'Available',
      errorCode: 'NoError',
      vendorErrorCode: undefined,
      plugged: false,
      operative: true,
      inoperativeScheduled: false,
      registerWh: 0,
      bulkW: 250,
      overdrawW: undefined,
      powerW: 0,
      battery: undefined,
      transaction: undefined,
      temperatureC: undefined,
    }));
    this.transactions = new TransactionQueue({
      ready: () => this.online && this.bootStatus === 'Accepted',
      online: () => this.online,
      call: (action, payload) => this.call(action, payload),
      started: (txRef, transactionId) => {
        for (const c of this.connectors) {
          if (c.transaction?.ref !== txRef) continue;
          c.transaction.id = transactionId;
          this.emit('transaction', c.id, transactionId);
        }
      },
      log: (text) => this.log(text),
    });
  }

  /** Transaction messages waiting for the connection. */
  get queued(): number {
    return this.transactions.length;
  }

  connector(connectorId: number): ConnectorState {
    const found = this.connectors[connectorId - 1];
    if (!found) throw new RangeError(`${this.id} has no connector ${connectorId}`);
    return found;
  }

  protected answerCalls(client: RPCClient): void {
    registerRemoteCalls(client, this);
  }

  // ---------------------------------------------------------------- status

  private async report(connectorId: number): Promise<void> {
    if (!this.online || this.bootStatus !== 'Accepted') return;
    const payload: StatusNotificationReq =
      connectorId === 0
        ? { connectorId: 0, errorCode: 'NoError', status: this.status, timestamp: this.iso() }
        : this.statusOf(this.connector(connectorId));
    await this.call('StatusNotification', { ...payload });
  }

  private statusOf(c: ConnectorState): StatusNotificationReq {
    return {
      connectorId: c.id,
      errorCode: c.errorCode,
      status: c.status,
      timestamp: this.iso(),
      ...(c.vendorErrorCode ? { vendorId: 'Gatehouse', vendorErrorCode: c.vendorErrorCode } : {}),
    };
  }

  protected async reportAll(): Promise<void> {
    await this.report(0);
    for (const c of this.connectors) await this.report(c.id);
  }

  private async setStatus(c: ConnectorState, status: ChargePointStatus): Promise<void> {
    c.status = status;
    this.emit('status', c.id, status);
    await this.report(c.id).catch((error: unknown) => this.log(`status ${c.id}: ${String(error)}`));
  }

  /** The status a healthy connector shows without a transaction. */
  private idleStatus(c: ConnectorState): ChargePointStatus {
    if (!c.operative) return 'Unavailable';
    return c.plugged ? 'Preparing' : 'Available';
  }

  // ---------------------------------------------------------------- user actions

  /** A bike is plugged in: Preparing (the socket waits for a card). */
  async plugIn(connectorId: number, battery: Partial<Battery> = {}): Promise<void> {
    const c = this.connector(connectorId);
    c.plugged = true;
    c.battery = { capacityWh: battery.capacityWh ?? 500, soc: battery.soc ?? 0.3 };
    if (c.status === 'Available') await this.setStatus(c, 'Preparing');
  }

  /**
   * Takes up a transaction this charge point was running before its process stopped: a real charger keeps its
   * transactions while the central system restarts, and the demo's charge points run in the server's process
   * (Gatehouse's demo starts them with the sessions its database holds). Call before going online: the bike is
   * plugged in, the transaction carries the central system's id and the register stands where it did, so the
   * boot reports the connector Charging and metering goes on.
   */
  resume(
    connectorId: number,
    tx: { transactionId: number; idTag: string; meterStartWh: number; energyWh: number; startedAt: number },
    battery: Partial<Battery> = {},
  ): void {
    const c = this.connector(connectorId);
    c.plugged = true;
    c.battery = { capacityWh: battery.capacityWh ?? 500, soc: battery.soc ?? 0.5 };
    c.registerWh = Math.max(c.registerWh, tx.meterStartWh + tx.energyWh);
    const ref = this.nextTxRef++;
    c.transaction = {
      ref,
      id: tx.transactionId,
      idTag: tx.idTag,
      meterStartWh: tx.meterStartWh,
      startedAt: tx.startedAt,
    };
    this.transactions.known(ref, tx.transactionId);
    c.status = 'Charging';
    c.powerW = this.offeredW(c);
  }

  /** The charger's bulk rate for this connector (W), 100–400 for an e-bike. */
  setPower(connectorId: number, watts: number): void {
    this.connector(connectorId).bulkW = watts;
  }

  /**
   * Makes a connector draw `watts` while it charges, whatever its bulk rate or a smart-charging limit says (a
   * charger that takes more than its share: the demo of a zone power budget); null keeps to them again. Takes
   * effect at the next meter reading.
   */
  overdraw(connectorId: number, watts: number | null): void {
    this.connector(connectorId).overdrawW = watts ?? undefined;
  }

  /**
   * The power a connector offers its bike now (W): its bulk rate, under the smart-charging limit in force on its
   * transaction (SmartCharging only), unless it was told to overdraw.
   */
  offeredW(c: ConnectorState): number {
    if (c.overdrawW !== undefined) return c.overdrawW;
    const tx = c.transaction;
    if (!this.options.smartCharging || tx?.id === undefined) return c.bulkW;
    const limit = this.profiles.limitW(c.id, tx.id, (this.now() - tx.startedAt) / 1000);
    return limit === undefined ? c.bulkW : Math.min(c.bulkW, limit);
  }

  /**
   * Makes the charger overheat (demos and tests; docs/chargers.md "Heat"): its sensor on a connector (the pack's
   * outlet) or on connector 0 (the charger's body) reads `celsius` from now on, and a MeterValues with it goes
   * at once (in the connector's transaction if one runs), then with every later sample. Null goes back to the
   * normal reading. Only a charger with a temperature sensor whose MeterValuesSampledData has Temperature reports
   * it (the answer says whether it did): the central system sees what a real one would show.
   */
  async overheat(celsius: number | null, connectorId = 0): Promise<{ reported: boolean }> {
    if (connectorId === 0) this.bodyTemperatureC = celsius ?? undefined;
    else this.connector(connectorId).temperatureC = celsius ?? undefined;
    if (!this.configuration.measurands().has('Temperature')) return { reported: false };
    if (connectorId === 0) await this.sendBodyTemperature('Sample.Periodic');
    else await this.sendMeterValues(this.connector(connectorId), 'Sample.Periodic');
    return { reported: this.online };
  }

  /**
   * A card is swiped at the connector: Authorize, then StartTransaction when accepted and a bike is
   * plugged in. Offline, the card is accepted locally and the StartTransaction queued (the charge point's
   * choice: an e-bike garage would rather charge than refuse while its network is down).
   */
  async swipe(
    connectorId: number,
    idTag: string,
  ): Promise<{ status: AuthorizationStatus; transactionId?: number }> {
    const c = this.connector(connectorId);
    if (c.transaction) return { status: 'ConcurrentTx' };
    if (this.online) {
      const conf = (await this.call('Authorize', { idTag })) as { idTagInfo: IdTagInfo };
      if (conf.idTagInfo.status !== 'Accepted') return { status: conf.idTagInfo.status };
    }
    if (!c.plugged || !c.operative || c.status === 'Faulted') return { status: 'Accepted' };
    return this.startTransaction(c, idTag);
  }

  private async startTransaction(
    c: ConnectorState,
    idTag: string,
  ): Promise<{ status: AuthorizationStatus; transactionId?: number }> {
    const tx: Transaction = {
      ref: this.nextTxRef++,
      id: undefined,
      idTag,
      meterStartWh: Math.round(c.registerWh),
      startedAt: this.now(),
    };
    c.transaction = tx;
    const payload: StartTransactionReq = {
      connectorId: c.id,
      idTag,
      meterStart: tx.meterStartWh,
      timestamp: new Date(tx.startedAt).toISOString(),
    };
    await this.setStatus(c, 'Charging');
    c.powerW = c.battery ? charge(c.battery, this.offeredW(c), 0).powerW : this.offeredW(c);
    const conf = (await this.send('StartTransaction', { ...payload }, tx.ref)) as
      StartTransactionConf | undefined;
    if (!conf) return { status: 'Accepted' };
    if (conf.idTagInfo.status !== 'Accepted') {
      // The central system refused the card after all: end the transaction it opened (StopTransactionOnInvalidId).
      await this.stopTransaction(c, 'DeAuthorized');
      return { status: conf.idTagInfo.status, transactionId: conf.transactionId };
    }
    return { status: 'Accepted', transactionId: conf.transactionId };
  }

  /** The bike is unplugged: the transaction (if any) ends with EVDisconnected, the connector is Available. */
  async unplug(connectorId: number): Promise<void> {
    const c = this.connector(connectorId);
    if (c.transaction) await this.stopTransaction(c, 'EVDisconnected', false);
    c.plugged = false;
    c.battery = undefined;
    c.powerW = 0;
    if (c.status !== 'Faulted') await this.setStatus(c, this.idleStatus(c));
  }

  /** A local stop (button or card at the socket): the bike stays plugged in, Finishing. */
  async stop(connectorId: number, reason: StopReason = 'Local'): Promise<void> {
    const c = this.connector(connectorId);
    if (c.transaction) await this.stopTransaction(c, reason);
  }

  /** A fault: a running transaction ends (the power is cut) and the connector reports Faulted. */
  async fault(connectorId: number, errorCode: ChargePointErrorCode, vendorErrorCode?: string): Promise<void> {
    const c = this.connector(connectorId);
    if (c.transaction) await this.stopTransaction(c, 'Other', false);
    c.errorCode = errorCode;
    c.vendorErrorCode = vendorErrorCode;
    c.powerW = 0;
    await this.setStatus(c, 'Faulted');
  }

  /** The fault is repaired. */
  async clearFault(connectorId: number): Promise<void> {
    const c = this.connector(connectorId);
    c.errorCode = 'NoError';
    c.vendorErrorCode = undefined;
    await this.setStatus(c, this.idleStatus(c));
  }

  private async stopTransaction(c: ConnectorState, reason: StopReason, report = true): Promise<void> {
    const tx = c.transaction;
    if (!tx) return;
    c.transaction = undefined;
    c.powerW = 0;
    // A TxProfile ends with its transaction.
    if (tx.id !== undefined) this.profiles.transactionEnded(tx.id);
    const meterStop = Math.round(c.registerWh);
    const timestamp = this.iso();
    const payload: Omit<StopTransactionReq, 'transactionId'> = {
      meterStop,
      timestamp,
      idTag: tx.idTag,
      reason,
      transactionData: [
        {
          timestamp,
          sampledValue: [
            {
              value: String(meterStop),
              context: 'Transaction.End',
              measurand: 'Energy.Active.Import.Register',
              unit: 'Wh',
            },
          ],
        },
      ],
    };
    await this.send('StopTransaction', { ...payload }, tx.ref).catch((error: unknown) =>
      this.log(`stop: ${String(error)}`),
    );
    if (c.inoperativeScheduled) {
      c.operative = false;
      c.inoperativeScheduled = false;
    }
    if (report) await this.setStatus(c, c.plugged && c.operative ? 'Finishing' : this.idleStatus(c));
  }

  // ---------------------------------------------------------------- metering

  /**
   * Advances every running transaction by `seconds` of simulated time and sends their MeterValues
   * (register in Wh, power in W). A full pack draws nothing: the connector goes SuspendedEV.
   */
  async advance(seconds: number): Promise<void> {
    for (const c of this.connectors) {
      if (!c.transaction || c.status === 'Faulted') continue;
      // What it offers over the step: its bulk rate, under a smart-charging limit (or overdrawn).
      const offered = this.offeredW(c);
      if (c.battery) {
        const step = charge(c.battery, offered, Math.round(seconds));
        c.registerWh += step.energyWh;
        c.powerW = step.powerW;
      } else {
        c.registerWh += (offered * seconds) / 3600;
        c.powerW = offered;
      }
      if (c.powerW === 0 && c.status === 'Charging') await this.setStatus(c, 'SuspendedEV');
      await this.sendMeterValues(c, 'Sample.Periodic');
    }
    // An overheating body keeps being reported (connector 0 has no transaction to carry its samples).
    if (this.bodyTemperatureC !== undefined && this.configuration.measurands().has('Temperature'))
      await this.sendBodyTemperature('Sample.Periodic');
  }

  /** The register always; power and temperature as MeterValuesSampledData asks (a pack warms as it takes power). */
  private meterValue(c: ConnectorState, context: 'Sample.Periodic' | 'Trigger'): MeterValue {
    const measurands = this.configuration.measurands();
    const sampledValue: MeterValue['sampledValue'] = [
      {
        value: String(Math.round(c.registerWh)),
        context,
        measurand: 'Energy.Active.Import.Register',
        unit: 'Wh',
      },
    ];
    if (measurands.has('Power.Active.Import'))
      sampledValue.push({
        value: String(Math.round(c.powerW)),
        context,
        measurand: 'Power.Active.Import',
        unit: 'W',
      });
    if (measurands.has('Temperature'))
      sampledValue.push({
        value: (c.temperatureC ?? 25 + c.powerW / 40).toFixed(1),
        context,
        measurand: 'Temperature',
        unit: 'Celsius',
      });
    return { timestamp: this.iso(), sampledValue };
  }

  /** Connector 0's MeterValues: the charger's body temperature (no transaction). */
  private async sendBodyTemperature(context: 'Sample.Periodic' | 'Trigger'): Promise<void> {
    if (!this.online) return;
    const sample = {
      value: (this.bodyTemperatureC ?? 25).toFixed(1),
      context,
      measurand: 'Temperature',
      unit: 'Celsius',
      location: 'Body',
    } as const;
    const payload: MeterValuesReq = {
      connectorId: 0,
      meterValue: [{ timestamp: this.iso(), sampledValue: [sample] }],
    };
    await this.call('MeterValues', { ...payload }).catch((error: unknown) =>
      this.log(`meter values: ${String(error)}`),
    );
  }

  private async sendMeterValues(c: ConnectorState, context: 'Sample.Periodic' | 'Trigger'): Promise<void> {
    const payload: Omit<MeterValuesReq, 'transactionId'> = {
      connectorId: c.id,
      meterValue: [this.meterValue(c, context)],
    };
    if (c.transaction) {
      await this.send('MeterValues', { ...payload }, c.transaction.ref).catch((error: unknown) =>
        this.log(`meter values: ${String(error)}`),
      );
    } else if (this.online) {
      await this.call('MeterValues', { ...payload }).catch((error: unknown) =>
        this.log(`meter values: ${String(error)}`),
      );
    }
  }

  /** Resends the queued transaction messages in order; stops at the first failure and keeps the rest. */
  flush(): Promise<void> {
    return this.transactions.flush();
  }

  private send(action: Queued['action'], payload: Record<string, unknown>, txRef: number): Promise<unknown> {
    return this.transactions.send(action, payload, txRef);
  }

  // ---------------------------------------------------------------- central system calls

  /** RemoteStartTransaction on a connector (checked by remote-calls.ts): the start follows the answer. */
  remoteStart(c: ConnectorState, idTag: string): void {
    setImmediate(
      () =>
        void this.startTransaction(c, idTag).catch((error: unknown) =>
          this.log(`remote start: ${String(error)}`),
        ),
    );
  }

  /** A stop the central system asked for (RemoteStopTransaction, UnlockConnector), after the answer. */
  remoteStop(c: ConnectorState, reason: StopReason): void {
    setImmediate(() => void this.stopTransaction(c, reason));
  }

  /**
   * ChangeAvailability: Inoperative during a transaction is Scheduled (applied when it ends); otherwise the
   * connectors (all for 0) report their new status after the answer.
   */
  changeAvailability(connectorId: number, operative: boolean): 'Accepted' | 'Scheduled' | 'Rejected' {
    const targets = connectorId === 0 ? this.connectors : [this.connectors[connectorId - 1]];
    if (targets.some((c) => !c)) return 'Rejected';
    let scheduled = false;
    for (const c of targets as ConnectorState[]) {
      if (!operative && c.transaction) {
        c.inoperativeScheduled = true;
        scheduled = true;
        continue;
      }
      c.operative = operative;
      c.inoperativeScheduled = false;
      if (c.status !== 'Faulted') setImmediate(() => void this.setStatus(c, this.idleStatus(c)));
    }
    if (connectorId === 0 && !scheduled) {
      this.status = operative ? 'Available' : 'Unavailable';
      setImmediate(() => void this.report(0).catch(() => {}));
    }
    return scheduled ? 'Scheduled' : 'Accepted';
  }

  /** Reset (after the answer). */
  resetSoon(hard: boolean): void {
    setImmediate(() => void this.reset(hard));
  }

  /** TriggerMessage (after the answer). */
  triggerSoon(message: TriggerableMessage, connectorId: number | undefined): void {
    setImmediate(
      () =>
        void this.trigger(message, connectorId).catch((error: unknown) =>
          this.log(`trigger: ${String(error)}`),
        ),
    );
  }

  private async trigger(message: TriggerableMessage, connectorId: number | undefined): Promise<void> {
    switch (message) {
      case 'BootNotification':
        return this.boot();
      case 'Heartbeat':
        await this.heartbeat();
        return;
      case 'StatusNotification':
        if (connectorId === undefined) return this.reportAll();
        return this.report(connectorId);
      case 'MeterValues':
        for (const c of this.connectors) {
          if (connectorId === undefined || connectorId === 0 || c.id === connectorId)
            await this.sendMeterValues(c, 'Trigger');
        }
        if ((connectorId ?? 0) === 0 && this.configuration.measurands().has('Temperature'))
          await this.sendBodyTemperature('Trigger');
        return;
      case 'DiagnosticsStatusNotification':
        await this.call('DiagnosticsStatusNotification', { status: 'Idle' });
        return;
      case 'FirmwareStatusNotification':
        await this.call('FirmwareStatusNotification', { status: 'Idle' });
        return;
    }
  }

  /**
   * The charge point loses power and comes back (a reboot without a transaction log, as cheap chargers do): the
   * connection drops, running transactions are forgotten with no StopTransaction (queued transaction messages are
   * lost too), and on a new connection it boots and reports every connector: Finishing where a bike is still
   * plugged in after a transaction it lost, else its idle status. Resolves once the central system has answered
   * the boot and every status report (event 'ready'); rejects when that does not happen within two call timeouts.
   */
  async powerCycle(): Promise<void> {
    await this.goOffline();
    this.transactions.clear();
    this.profiles.reset();
    for (const c of this.connectors) {
      const lost = c.transaction !== undefined;
      c.transaction = undefined;
      c.powerW = 0;
      if (c.status !== 'Faulted')
        c.status = lost && c.plugged && c.operative ? 'Finishing' : this.idleStatus(c);
    }
    this.bootStatus = 'none';
    const ready = once(this, 'ready', {
      signal: AbortSignal.timeout(2 * (this.options.callTimeoutMs ?? 30_000)),
    });
    try {
      await this.goOnline();
    } catch (error) {
      ready.catch(() => {}); // the handshake failed: no boot will come
      throw error;
    }
    await ready;
  }

  /** Reset: running transactions end (SoftReset / HardReset), the connection drops, the charge point boots again. */
  private async reset(hard: boolean): Promise<void> {
    for (const c of this.connectors) {
      if (c.transaction) await this.stopTransaction(c, hard ? 'HardReset' : 'SoftReset', false);
      c.status = c.status === 'Faulted' ? 'Faulted' : this.idleStatus(c);
    }
    await this.flush().catch(() => {});
    await this.goOffline();
    this.bootStatus = 'none';
    await new Promise((resolve) => setTimeout(resolve, 100));
    await this.goOnline().catch((error: unknown) => this.log(`reconnect after reset: ${String(error)}`));
  }
}
