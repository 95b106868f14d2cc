/** An authorisation as the list shows it (effective validity: its own range within the holder's). */
export interface AuthorizationRow {
  Id: number;
  CardUserId: number;
  HolderName: string;
  HolderDisabled: boolean;
  DepartmentName: string | null;
  CardNumbers: string[];
  ChannelId: number;
  ChannelName: string;
  DoorNumber: number;
  Direction: number;
  DeviceId: number;
  DeviceName: string;
  SerialNumber: string;
  Protocol: number;
  ValidFrom: string;
  ValidTo: string;
  CustomValidity: boolean;
  IssueStatus: number;
  Revoked: boolean;
  UpdatedAt: string;
  [key: string]: unknown;
}

/** Authorisations of one device in each issue status (keys '-2' … '3'). */
export interface DeviceStatusCount {
  DeviceId: number;
  DeviceName: string;
  SerialNumber: string;
  Protocol: number;
  Disabled: boolean;
  Counts: Record<string, number>;
  Pending: number;
  Total: number;
}
