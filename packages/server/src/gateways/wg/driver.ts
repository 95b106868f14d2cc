// The WG driver (docs/devices.md, "Driver"): the transport (driver-transport.ts: requests with retries, one in
// flight per controller, online tracking, the listener for pushed events), the access-rule calls (driver-rules.ts)
// and, here, the calls for the controller itself, its cards, doors and records. Pure transport: no database, no
// services.

import dgram from 'node:dgram';
import { once } from 'node:events';
import type {
  CardRef,
  DeviceResponse,
  LocalDateTime,
  ResponseOf,
  StatusResponse,
  WgRecord,
} from './codec.ts';
import { WgRuleCalls } from './driver-rules.ts';
import type { CardRecord, CardSlot, DoorControl, WgDevice, WgDriverOptions } from './driver-transport.ts';
import { clockDriftSeconds } from './time.ts';

export * from './driver-transport.ts';

export class WgDriver extends WgRuleCalls {
  /** Opens the request socket. */
  static async open(options: WgDriverOptions = {}): Promise<WgDriver> {
    const socket = dgram.createSocket('udp4');
    socket.bind(options.bindPort ?? 0, options.bindAddress ?? '0.0.0.0');
    await once(socket, 'listening');
    socket.setBroadcast(true);
    return new WgDriver(socket, options);
  }

  /** 0x94: network settings, firmware version and release date; updates the device state. */
  getDevice(device: WgDevice): Promise<DeviceResponse> {
    return this.request<'getDevice'>(device, { kind: 'getDevice', serial: device.serial });
  }

  /** 0x20: newest record, doors, buttons, relays, inputs, system clock. */
  getStatus(device: WgDevice): Promise<StatusResponse> {
    return this.request<'getStatus'>(device, { kind: 'getStatus', serial: device.serial });
  }

  /** 0x32: the controller's wall clock (null if it reports none). */
  async getTime(device: WgDevice): Promise<LocalDateTime | null> {
    return (await this.request(device, { kind: 'getTime', serial: device.serial })).time;
  }

  /**
   * Reads the clock (0x32) and compares it with this server's clock in `timeZone` (the area's), at the midpoint
   * of the exchange that answered: controller minus server, in seconds. Waiting in the queue does not count.
   */
  async clockDrift(
    device: WgDevice,
    timeZone: string,
  ): Promise<{ time: LocalDateTime | null; driftSeconds: number | null }> {
    this.track(device);
    return this.enqueue(device.serial, async () => {
      const sent = Date.now();
      const reply = (await this.exchange(device, {
        kind: 'getTime',
        serial: device.serial,
      })) as ResponseOf<'getTime'>;
      const midpoint = new Date((sent + Date.now()) / 2);
      return {
        time: reply.time,
        driftSeconds: reply.time && clockDriftSeconds(reply.time, midpoint, timeZone),
      };
    });
  }

  /** 0x30: sets the wall clock; resolves with the time the controller then reports. */
  async setTime(device: WgDevice, time: LocalDateTime): Promise<LocalDateTime | null> {
    return (await this.request(device, { kind: 'setTime', serial: device.serial, time })).time;
  }

  /** 0x40: opens a door now (the controller logs a record with reason 44). */
  openDoor(device: WgDevice, door: number): Promise<void> {
    return this.must(device, { kind: 'openDoor', serial: device.serial, door }, `to open door ${door}`);
  }

  /** 0x50: adds or replaces a card. */
  putCard(device: WgDevice, card: CardRecord): Promise<void> {
    return this.must(device, { kind: 'putCard', serial: device.serial, ...card }, `card ${card.card}`);
  }

  /** 0x52: deletes a card; false when the controller did not hold it (its reply byte 8 = 0). */
  async deleteCard(device: WgDevice, card: number): Promise<boolean> {
    return (await this.request(device, { kind: 'deleteCard', serial: device.serial, card })).ok;
  }

  /** 0x54 with the magic word: clears the card list. */
  deleteAllCards(device: WgDevice): Promise<void> {
    return this.must(device, { kind: 'deleteAllCards', serial: device.serial }, 'to delete all cards');
  }

  /** 0x58: number of cards held (deleted slots are not counted). */
  async getCardCount(device: WgDevice): Promise<number> {
    return (await this.request(device, { kind: 'getCardCount', serial: device.serial })).count;
  }

  /** 0x5A: one card by number, or null when the controller does not hold it (card 0 or 0xFFFFFFFF in the reply). */
  async getCard(device: WgDevice, card: number): Promise<CardRecord | null> {
    const r = await this.request(device, { kind: 'getCard', serial: device.serial, card });
    return r.card.kind === 'card' ? cardRecord(r.card, r) : null;
  }

  /**
   * 0x5C: the card list slot at `index` (1-based): a card, `deleted` (0xFFFFFFFF), or `none` (0). `none` can
   * appear before the end of the list, so walk until `getCardCount()` cards are found (see `listCards`).
   */
  async getCardByIndex(device: WgDevice, index: number): Promise<CardSlot> {
    const r = await this.request(device, { kind: 'getCardByIndex', serial: device.serial, index });
    return r.card.kind === 'card' ? { kind: 'card', ...cardRecord(r.card, r) } : { kind: r.card.kind };
  }

  /**
   * Every card the controller holds, in list order: reads the count (0x58), then slots from index 1 (0x5C),
   * skipping `none` and `deleted`, until that many cards are found or `maxIndex` is passed (as the
   * uhppoted-nodejs get-all-cards example does). One request per slot: 10,000 cards are 10,000 round trips.
   */
  async listCards(
    device: WgDevice,
    options: { maxIndex?: number; onProgress?: (found: number, total: number) => void } = {},
  ): Promise<CardRecord[]> {
    const total = await this.getCardCount(device);
    const maxIndex = options.maxIndex ?? Math.max(total * 2, total + 1000);
    const cards: CardRecord[] = [];
    for (let index = 1; cards.length < total && index <= maxIndex; index++) {
      const slot = await this.getCardByIndex(device, index);
      if (slot.kind !== 'card') continue;
      const { kind: _kind, ...card } = slot;
      cards.push(card);
      options.onProgress?.(cards.length, total);
    }
    return cards;
  }

  /** 0x80: sets a door's mode and delay; refused unless the controller echoes the new setting. */
  async setDoorControl(device: WgDevice, door: number, control: DoorControl): Promise<DoorControl> {
    const r = await this.request(device, { kind: 'setDoorControl', serial: device.serial, door, ...control });
    if (r.door !== door || r.mode !== control.mode || r.delay !== control.delay)
      this.refused(device, 'setDoorControl', `mode ${control.mode} / ${control.delay} s on door ${door}`);
    return { mode: r.mode, delay: r.delay };
  }

  /** 0x82 */
  async getDoorControl(device: WgDevice, door: number): Promise<DoorControl> {
    const r = await this.request(device, { kind: 'getDoorControl', serial: device.serial, door });
    return { mode: r.mode, delay: r.delay };
  }

  /** 0x8E: also record door open/close and push-button events. */
  recordSpecialEvents(device: WgDevice, enable: boolean): Promise<void> {
    return this.must(
      device,
      { kind: 'recordSpecialEvents', serial: device.serial, enable },
      'special events',
    );
  }

  /** 0x90: where the controller pushes events; 0.0.0.0 turns pushing off. `interval`: auto-send seconds (0 off). */
  setListener(device: WgDevice, address: string, port: number, interval = 0): Promise<void> {
    return this.must(
      device,
      { kind: 'setListener', serial: device.serial, address, port, interval },
      `listener ${address}:${port}`,
    );
  }

  /** 0x92 */
  async getListener(device: WgDevice): Promise<{ address: string; port: number; interval: number }> {
    const { address, port, interval } = await this.request(device, {
      kind: 'getListener',
      serial: device.serial,
    });
    return { address, port, interval };
  }

  /**
   * 0xB0: the record at `index`. `type` 0 means there is none (past the newest), 0xFF that the ring overwrote it.
   */
  async getRecord(device: WgDevice, index: number): Promise<WgRecord> {
    return (await this.request(device, { kind: 'getRecord', serial: device.serial, index })).record;
  }

  /** 0xB2 with the magic word: stores the host's read index on the controller. */
  setReadIndex(device: WgDevice, index: number): Promise<void> {
    return this.must(device, { kind: 'setReadIndex', serial: device.serial, index }, `read index ${index}`);
  }

  /** 0xB4: the read index last stored with 0xB2 (not the newest record: see getStatus().event.index). */
  async getReadIndex(device: WgDevice): Promise<number> {
    return (await this.request(device, { kind: 'getReadIndex', serial: device.serial })).index;
  }
}

function cardRecord(
  card: Extract<CardRef, { kind: 'card' }>,
  r: ResponseOf<'getCard'> | ResponseOf<'getCardByIndex'>,
): CardRecord {
  return { card: card.number, from: r.from, to: r.to, doors: r.doors, pin: r.pin };
}
