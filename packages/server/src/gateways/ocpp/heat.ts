import { STOP_REASON, type HeatAlarmItem } from '@gatehouse/shared';
import {
  heatReported,
  heatStopsDue,
  releaseSessionStop,
  requestSessionStop,
  type HeatOutcome,
  type HeatReport,
} from '../../modules/garage/index.ts';
import { systemActor } from '../../platform/context.ts';
import { callChargePoint } from './connection.ts';
import type { ChargePointLink } from './handlers.ts';
import type { InboundActions } from './messages.gen.ts';
import { deviceTime, hottestTemperature } from './protocol.ts';

/**
 * Heat (docs/chargers.md "Heat"): what a charge point says about temperature, handed to the garage's heat alarm
 * (charge-host/heat-alarm.ts), and the stops the alarm asks for, made on this connection. A MeterValues carrying
 * a Temperature sample (in a transaction or on connector 0) is a reading; a StatusNotification with errorCode
 * HighTemperature (any connector, any status: OCPP lets a warning come with a working status, and heat is never
 * a mere warning in a garage) is a fault. When the host enters alarm, every session that ran there is stopped
 * with RemoteStopTransaction and the stop reason "over temperature"; one the charger refused or never answered
 * is asked again at the host's next reading of a transaction, for as long as the alarm is open.
 */

type Req<A extends keyof InboundActions> = InboundActions[A]['req'];

/** The actor a heat stop is audited with (settlement's requestSessionStop). */
const HEAT_ACTOR = systemActor('heat alarm');

/** A MeterValues: its hottest Temperature sample, and the stops still due on the host while it is in alarm. */
export async function meterHeat(link: ChargePointLink, meter: Req<'MeterValues'>): Promise<void> {
  const { hostId } = link.connection;
  const sample = hottestTemperature(meter.meterValue, link.now());
  let raised = false;
  if (sample) {
    const reading = { ...sample, connectorId: meter.connectorId };
    const outcome = await heatReported(link.ctx(), hostId, { trigger: 'temperature', reading });
    raised = announce(link, outcome);
  }
  if (raised || meter.transactionId === undefined) return;
  const due = await heatStopsDue(link.ctx(), hostId);
  if (due && due.recordIds.length > 0) afterReply(link, due.recordIds, due.alarm);
}

/** A StatusNotification with errorCode HighTemperature: the host enters alarm whatever its zone's limit. */
export async function statusHeat(link: ChargePointLink, report: Req<'StatusNotification'>): Promise<void> {
  if (report.errorCode !== 'HighTemperature') return;
  const at = deviceTime(report.timestamp, link.now());
  const fault: HeatReport = { trigger: 'fault', connectorId: report.connectorId, at };
  announce(link, await heatReported(link.ctx(), link.connection.hostId, fault));
}

/** A new alarm: logged, told to the hub, and its sessions stopped once the charger has its answer. */
function announce(link: ChargePointLink, outcome: HeatOutcome): boolean {
  if (outcome.kind !== 'raised') return false;
  const { alarm } = outcome;
  link.log.warn(
    {
      chargePoint: link.connection.serial,
      trigger: alarm.Trigger,
      temperatureC: alarm.TemperatureC,
      limitC: alarm.LimitC,
      sessions: alarm.Sessions.length,
    },
    'ocpp: heat alarm: the host stops its sessions and takes no new ones',
  );
  link.events.emit('heatAlarm', { ...link.ref(), alarm });
  afterReply(
    link,
    alarm.Sessions.map((s) => s.ChargeRecordId),
    alarm,
  );
  return true;
}

/** The stops are calls of our own to the charge point: made after this message's reply has left. */
function afterReply(link: ChargePointLink, recordIds: number[], alarm: HeatAlarmItem): void {
  setImmediate(() => {
    for (const recordId of recordIds) void stopForHeat(link, recordId, alarm);
  });
}

/**
 * One session stopped for the host's heat alarm: the stop reason is stored on the session first (its
 * StopTransaction then ends and settles it "over temperature", however late it comes), then
 * RemoteStopTransaction; a refusal or no answer releases it, and the next reading asks again.
 */
async function stopForHeat(link: ChargePointLink, recordId: number, alarm: HeatAlarmItem): Promise<void> {
  const { log, connection } = link;
  try {
    const ctx = { ...link.ctx(), actor: HEAT_ACTOR };
    const why = { HeatTrigger: alarm.Trigger, TemperatureC: alarm.TemperatureC, LimitC: alarm.LimitC };
    if (!(await requestSessionStop(ctx, recordId, STOP_REASON.overTemperature, why))) return;
    const conf = await callChargePoint(link.client, 'RemoteStopTransaction', {
      transactionId: recordId,
    }).catch((error: unknown) => {
      log.warn({ err: error, chargePoint: connection.serial, recordId }, 'ocpp: heat stop not delivered');
      return undefined;
    });
    if (conf?.status !== 'Accepted')
      await releaseSessionStop(ctx.db.kysely, recordId, STOP_REASON.overTemperature);
  } catch (error) {
    log.error({ err: error, recordId }, 'ocpp: heat stop failed');
  }
}
