/** Operator-editable settings with their defaults; stored as text in the Setting table. */
export interface SettingValues {
  SiteTitle: string;
  ImageBaseUrl: string;
  SessionTtlSeconds: number;
  LoginMaxFailures: number;
  LoginLockMinutes: number;
  /** Days an export file is kept before it expires. */
  ExportRetentionDays: number;
  /** Months of swipe records kept; 0 keeps everything. */
  SwipeRetentionMonths: number;
  /** Months of charging sessions (with their orders) kept; 0 keeps everything. */
  ChargeRecordRetentionMonths: number;
  /** Months of forced power-off records kept; 0 keeps everything. */
  PowerOffRetentionMonths: number;
  /** Months of parking orders kept; 0 keeps everything. */
  ParkOrderRetentionMonths: number;
  /**
   * Seconds a zone may stay above its power budget before Gatehouse limits or stops sessions there (docs/garage.md
   * "Zone power budget"): a bike's inrush or one late reading should not stop anyone.
   */
  BudgetGraceSeconds: number;
}

/**
 * The settings the platform reads on every request (session lifetime, login throttle, export retention).
 * Declared here and implemented by the system module's settings service, so the platform needs no module.
 */
export interface Settings {
  get<K extends keyof SettingValues>(key: K): SettingValues[K];
  all(): Readonly<SettingValues>;
  set(changes: Partial<SettingValues>): Promise<void>;
}
