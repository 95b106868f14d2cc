import { STOP_REASON } from '@gatehouse/shared';

/** A rule's safety limits (migration 0008), each null when not set. */
export interface SafetyLimits {
  MaxDurationMinutes: number | null;
  MaxPowerW: number | null;
  FullPowerW: number | null;
  FullMinutes: number | null;
}

/** A safety limit a running session crossed, and the stop reason Gatehouse records for it. */
export interface SafetyStop {
  rule: 'MaxDurationMinutes' | 'MaxPowerW' | 'StopWhenFull';
  limit: number;
  value: number;
  stopReason: number;
}

export interface SafetyCheck {
  crossed: SafetyStop | undefined;
  /** Since when the power has been below the "full" threshold, as it should be stored for the next reading. */
  fullSince: number | null;
}

/**
 * Which safety limit of the session's rule a reading crosses, if any (docs/chargers.md, "Safety rules"):
 * power above the maximum (the pack or charger misbehaves: a device fault), duration beyond the maximum (paid
 * time used up), or power below the "full" threshold for the set minutes (fully charged; `fullSince` is when
 * the low power began, kept on the socket between readings). Nothing when a stop was already asked for.
 * Pure: the caller stores `fullSince`.
 */
export function safetyLimitCrossed(
  session: { startAt: number; limits: SafetyLimits | null; stopRequest: number | null },
  powerW: number | undefined,
  now: number,
  fullSince: number | null,
): SafetyCheck {
  const limits = session.limits;
  if (!limits || session.stopRequest !== null) return { crossed: undefined, fullSince };
  if (limits.MaxPowerW !== null && powerW !== undefined && powerW > limits.MaxPowerW) {
    const crossed = {
      rule: 'MaxPowerW',
      limit: limits.MaxPowerW,
      value: powerW,
      stopReason: STOP_REASON.deviceFault,
    } as const;
    return { crossed, fullSince };
  }
  const minutes = Math.floor((now - session.startAt) / 60_000);
  if (limits.MaxDurationMinutes !== null && minutes >= limits.MaxDurationMinutes) {
    const crossed = {
      rule: 'MaxDurationMinutes',
      limit: limits.MaxDurationMinutes,
      value: minutes,
      stopReason: STOP_REASON.usedUp,
    } as const;
    return { crossed, fullSince };
  }
  if (limits.FullPowerW === null || limits.FullMinutes === null || powerW === undefined) {
    return { crossed: undefined, fullSince };
  }
  if (powerW >= limits.FullPowerW) return { crossed: undefined, fullSince: null };
  const since = fullSince ?? now;
  if (Math.floor((now - since) / 60_000) < limits.FullMinutes)
    return { crossed: undefined, fullSince: since };
  const crossed = {
    rule: 'StopWhenFull',
    limit: limits.FullPowerW,
    value: powerW,
    stopReason: STOP_REASON.fullyCharged,
  } as const;
  return { crossed, fullSince: null };
}
