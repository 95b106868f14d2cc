// The access-rule calls of the WG driver (codec-rules.ts): time profiles, the task list, interlock, anti-passback,
// keypads, passcodes, first card, restore defaults. A layer of the driver (driver-transport.ts, then this, then
// driver.ts's WgDriver), so that each file holds one concern.

import {
  checkAntiPassback,
  checkFirstCard,
  checkInterlock,
  checkTask,
  checkTimeProfile,
  passcodeList,
  type Doors4,
  type FirstCardRule,
  type TimeProfile,
  type WgTask,
} from './codec.ts';
import { WgTransport, type WgDevice } from './driver-transport.ts';

export abstract class WgRuleCalls extends WgTransport {
  // ---- access rules (codec-rules.ts; docs/devices.md, "Access rules: the messages") --------------------------
  // Values a controller would not take throw RangeError before anything is sent. All of these are idempotent
  // under retries except addTask: a lost reply retried adds the task twice, so rebuild a task list whole (clear,
  // add each, refresh) rather than patch it, and send each add once ({ tries: 1 }), starting over from the clear
  // when one goes unanswered (gateways/wg/rules-sync.ts).

  /** 0x88: stores a time profile (id 2..254; cards point at it with door values 2..254). */
  setTimeProfile(device: WgDevice, profile: TimeProfile): Promise<void> {
    checkTimeProfile(profile);
    const req = { kind: 'setTimeProfile' as const, serial: device.serial, ...profile };
    return this.must(device, req, `time profile ${profile.id}`);
  }

  /** 0x98: the stored profile, or null when the controller holds none with that id (it answers id 0). */
  async getTimeProfile(device: WgDevice, id: number): Promise<TimeProfile | null> {
    const r = await this.request(device, { kind: 'getTimeProfile', serial: device.serial, id });
    if (r.id === 0) return null;
    if (r.id !== id) this.refused(device, 'getTimeProfile', `time profile ${id} (answered ${r.id})`);
    return { id: r.id, from: r.from, to: r.to, weekdays: r.weekdays, segments: r.segments, linked: r.linked };
  }

  /** 0x8A with the magic word: deletes every time profile. */
  clearTimeProfiles(device: WgDevice): Promise<void> {
    return this.must(device, { kind: 'clearTimeProfiles', serial: device.serial }, 'to clear time profiles');
  }

  /** 0xA8: adds a task; it runs only after refreshTasks. Not idempotent (see above). */
  addTask(device: WgDevice, task: WgTask, options: { tries?: number } = {}): Promise<void> {
    checkTask(task);
    const req = { kind: 'addTask' as const, serial: device.serial, ...task };
    return this.must(device, req, `task ${task.type}`, options.tries);
  }

  /** 0xA6 with the magic word: empties the task list. */
  clearTasks(device: WgDevice): Promise<void> {
    return this.must(device, { kind: 'clearTasks', serial: device.serial }, 'to clear the task list');
  }

  /** 0xAC with the magic word: the tasks added since take effect. */
  refreshTasks(device: WgDevice): Promise<void> {
    return this.must(device, { kind: 'refreshTasks', serial: device.serial }, 'to refresh the task list');
  }

  /** 0xA2: interlock mode (`Interlock`: 0 off, 1 doors 1&2, 2 3&4, 3 both pairs, 4 1&2&3, 8 all four). */
  setInterlock(device: WgDevice, interlock: number): Promise<void> {
    checkInterlock(interlock);
    return this.must(
      device,
      { kind: 'setInterlock', serial: device.serial, interlock },
      `interlock ${interlock}`,
    );
  }

  /** 0x84: anti-passback mode (`AntiPassback`, 0..4). */
  setAntiPassback(device: WgDevice, antiPassback: number): Promise<void> {
    checkAntiPassback(antiPassback);
    const req = { kind: 'setAntiPassback' as const, serial: device.serial, antiPassback };
    return this.must(device, req, `anti-passback ${antiPassback}`);
  }

  /** 0x86 */
  async getAntiPassback(device: WgDevice): Promise<number> {
    return (await this.request(device, { kind: 'getAntiPassback', serial: device.serial })).antiPassback;
  }

  /** 0xA4: which readers' keypads are on (readers 1..4); a card with a PIN then needs it there. */
  activateKeypads(device: WgDevice, readers: Doors4<boolean>): Promise<void> {
    return this.must(device, { kind: 'activateKeypads', serial: device.serial, readers }, 'keypads');
  }

  /** 0x8C: a door's passcodes (up to four, 1..999999; missing ones are written as 0, "none"). */
  setDoorPasscodes(device: WgDevice, door: number, passcodes: readonly number[]): Promise<void> {
    const req = {
      kind: 'setDoorPasscodes' as const,
      serial: device.serial,
      door,
      passcodes: passcodeList(passcodes),
    };
    return this.must(device, req, `passcodes of door ${door}`);
  }

  /** 0xAA: a door's first-card rule. */
  setFirstCard(device: WgDevice, rule: FirstCardRule): Promise<void> {
    checkFirstCard(rule);
    return this.must(
      device,
      { kind: 'setFirstCard', serial: device.serial, ...rule },
      `first card, door ${rule.door}`,
    );
  }

  /**
   * 0xC8 with the magic word: back to factory parameters. Expect the listener, cards, rules and door settings gone,
   * and (as uhppote-simulator does it) the record ring and read index too: collection must start over.
   */
  restoreDefaults(device: WgDevice): Promise<void> {
    return this.must(
      device,
      { kind: 'restoreDefaults', serial: device.serial },
      'to restore default parameters',
    );
  }
}
