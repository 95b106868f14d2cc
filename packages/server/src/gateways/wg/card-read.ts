// What a controller holds of one card at one door, read for an access check (docs/access-control.md, "Access
// check"): nothing is written. The card (0x5A), the chain of time profiles its door value names (0x98, followed
// through their links as the controller walks them), the door's control (0x82) and the clock (0x32), turned into
// the module's terms (local dates as text, weekdays 1..7, segments HH:mm) so the module compares them with its own
// plan by the shared rule (packages/shared access-check-rules.ts).

import {
  PROFILE_SLOT_FIRST,
  PROFILE_SLOT_LAST,
  type ChainSlot,
  type ProfileSegment,
} from '@gatehouse/shared';
import type { ControllerCardRead, ControllerRef } from '../../modules/access-control/index.ts';
import { WEEKDAYS, formatLocalDate, type LocalDate, type LocalHHmm, type TimeProfile } from './codec.ts';
import type { WgDevice, WgDriver } from './driver.ts';

const two = (n: number) => String(n).padStart(2, '0');

const dateText = (d: LocalDate | null): string | null => (d ? formatLocalDate(d) : null);

const hhmmText = (t: LocalHHmm) => `${two(t.hour)}:${two(t.minute)}`;

/** A profile as the controller answered it (0x98), in the module's terms: the inverse of rules-sync's wireProfile. */
export function chainSlotOf(p: TimeProfile): ChainSlot {
  const segments: ProfileSegment[] = p.segments
    // 00:00–00:00 is an unused segment (uhppote-core writes the unused ones so).
    .filter((s) => s.start.hour + s.start.minute + s.end.hour + s.end.minute > 0)
    .map((s) => ({ Start: hhmmText(s.start), End: hhmmText(s.end) }));
  return {
    slot: p.id,
    from: dateText(p.from),
    to: dateText(p.to),
    weekdays: WEEKDAYS.flatMap((day, i) => (p.weekdays[day] ? [i + 1] : [])),
    segments,
    linked: p.linked,
  };
}

/** Reads the card, its door's profile chain, the door's control and the clock; WgError as the driver throws it. */
export async function readCardAt(
  driver: WgDriver,
  wg: WgDevice,
  device: ControllerRef,
  card: number,
  door: number,
): Promise<ControllerCardRead> {
  const held = await driver.getCard(wg, card);
  const profiles: ControllerCardRead['profiles'] = [];
  const value = held?.doors[door - 1] ?? 0;
  // The chain as the controller walks it: a loop is stopped, a slot it lacks ends it.
  for (let slot = value; slot >= PROFILE_SLOT_FIRST && slot <= PROFILE_SLOT_LAST;) {
    if (profiles.some((p) => p.slot === slot)) break;
    const profile = await driver.getTimeProfile(wg, slot);
    profiles.push({ slot, profile: profile && chainSlotOf(profile) });
    if (!profile) break;
    slot = profile.linked;
  }
  const control = await driver.getDoorControl(wg, door);
  const { driftSeconds } = await driver.clockDrift(wg, device.TimeZone);
  return {
    card: held && {
      from: dateText(held.from),
      to: dateText(held.to),
      doors: [...held.doors],
      pin: held.pin !== 0,
    },
    profiles,
    door: { mode: control.mode, delay: control.delay },
    driftSeconds,
  };
}
