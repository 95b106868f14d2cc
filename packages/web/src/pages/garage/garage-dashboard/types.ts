/** `GET /api/GarageDashboard` and `GET /api/GarageDashboard/Daily` (server: dashboard.ts). */
export interface DayFigures {
  Sessions: number;
  EnergyWh: number;
  ChargingRevenueCents: number;
  ParkOrders: number;
  ParkingRevenueCents: number;
}

export interface GarageSummary {
  TimeZone: string;
  Sockets: {
    Total: number;
    Idle: number;
    Occupied: number;
    Fault: number;
    Disabled: number;
    ByState: { State: number; Color: string | null; Count: number }[];
  };
  Hosts: { Total: number; Online: number };
  Zones: { Total: number; Capacity: number; Parked: number };
  OpenSessions: number;
  Today: DayFigures;
}

export interface GarageDaily {
  TimeZone: string;
  Days: (DayFigures & { Date: string })[];
}

/** Days the charts cover. */
export const CHART_DAYS = 30;
