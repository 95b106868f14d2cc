import { describe, expect, it } from 'vitest';
import {
  EBIKE_VENDOR_ERROR_CODES,
  FLOAT_CHARGE_MAX_W,
  OCPP_CHARGE_POINT_STATUSES,
  OCPP_ERROR_CODES,
  chargePortState,
  hostStatusFromOcpp,
  portStateFromOcpp,
  vendorFaultState,
  type OcppErrorCode,
} from '../src/index.ts';

describe('portStateFromOcpp (docs/chargers.md table)', () => {
  it.each([
    ['Available', 0],
    ['Preparing', 170],
    ['Charging', 1],
    ['SuspendedEV', 3],
    ['SuspendedEVSE', 2],
    ['Finishing', 2],
    ['Reserved', 11],
    ['Unavailable', 12],
    ['Faulted', 4],
  ] as const)('%s with NoError → %i', (status, state) => {
    expect(portStateFromOcpp({ status, errorCode: 'NoError' })).toBe(state);
  });

  it('reads Charging below the float threshold as float charge', () => {
    expect(portStateFromOcpp({ status: 'Charging', errorCode: 'NoError', powerW: 250 })).toBe(1);
    expect(portStateFromOcpp({ status: 'Charging', errorCode: 'NoError', powerW: FLOAT_CHARGE_MAX_W })).toBe(
      1,
    );
    expect(portStateFromOcpp({ status: 'Charging', errorCode: 'NoError', powerW: 12 })).toBe(5);
  });

  it('reads Finishing after a full battery as fully charged', () => {
    expect(portStateFromOcpp({ status: 'Finishing', errorCode: 'NoError', endedFull: true })).toBe(3);
  });

  it.each([
    ['ConnectorLockFailure', 7],
    ['PowerSwitchFailure', 9],
    ['OverCurrentFailure', 8],
    ['InternalError', 4],
    ['OtherError', 4],
    ['GroundFailure', 4],
    ['HighTemperature', 4],
  ] as const)('Faulted with %s → %i', (errorCode, state) => {
    expect(portStateFromOcpp({ status: 'Faulted', errorCode })).toBe(state);
  });

  it('lets a known e-bike vendor code decide a fault, case-insensitively', () => {
    for (const [code, state] of Object.entries(EBIKE_VENDOR_ERROR_CODES)) {
      expect(portStateFromOcpp({ status: 'Faulted', errorCode: 'OtherError', vendorErrorCode: code })).toBe(
        state,
      );
      expect(
        portStateFromOcpp({
          status: 'Faulted',
          errorCode: 'InternalError',
          vendorErrorCode: code.toUpperCase(),
        }),
      ).toBe(state);
    }
    expect(vendorFaultState(' relaystuck ')).toBe(9);
    expect(portStateFromOcpp({ status: 'Faulted', errorCode: 'OtherError', vendorErrorCode: 'E042' })).toBe(
      4,
    );
  });

  it('treats an error code with a non-Faulted status as a warning: the status decides', () => {
    expect(portStateFromOcpp({ status: 'SuspendedEVSE', errorCode: 'EVCommunicationError' })).toBe(2);
    expect(
      portStateFromOcpp({ status: 'Charging', errorCode: 'HighTemperature', vendorErrorCode: 'RelayStuck' }),
    ).toBe(1);
  });

  it('gives every status and error code combination a state of the enumeration', () => {
    const known = new Set<number>(chargePortState.items.map((item) => item.value));
    for (const status of OCPP_CHARGE_POINT_STATUSES) {
      for (const errorCode of OCPP_ERROR_CODES as readonly OcppErrorCode[]) {
        expect(known.has(portStateFromOcpp({ status, errorCode }))).toBe(true);
      }
    }
  });
});

describe('hostStatusFromOcpp (connector 0)', () => {
  it('keeps the three statuses connector 0 may have and reads the rest as Available', () => {
    expect(hostStatusFromOcpp('Available')).toBe('Available');
    expect(hostStatusFromOcpp('Unavailable')).toBe('Unavailable');
    expect(hostStatusFromOcpp('Faulted')).toBe('Faulted');
    expect(hostStatusFromOcpp('Charging')).toBe('Available');
  });
});
