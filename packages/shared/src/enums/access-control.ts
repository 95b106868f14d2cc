import { defineEnum } from './define.ts';

/** Controller protocol: 0 WG (the 64-byte UDP protocol), 1 other. */
export const accessControlProtocol = defineEnum('accessControlProtocol', [{ value: 0 }, { value: 1 }]);

/** Controller model: 0 unspecified, 1 single door two-way, 2 two doors two-way, 3 four doors one-way. */
export const accessControlType = defineEnum('accessControlType', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
]);

/** Door of a controller: 0 unspecified, 1 to 4. */
export const doorNumber = defineEnum('doorNumber', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
]);

/** 0 unspecified, 1 IC normal, 2 IC encrypted, 3 ID, 4 ID-card physical number. */
export const cardReaderType = defineEnum('cardReaderType', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
]);

/** 0 universal (any reader), 1 IC normal, 2 IC encrypted, 3 ID, 4 ID-card physical number. */
export const cardType = defineEnum('cardType', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
]);

/**
 * Where a card authorisation stands on the controller: -2 deletion succeeded, -1 pending deletion,
 * 0 no issue needed, 1 pending issue, 2 pending update, 3 issue succeeded.
 */
export const issueStatus = defineEnum('issueStatus', [
  { value: -2 },
  { value: -1 },
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
]);

/** Card-holder change record: 0 add, 1 modify, 2 disable, 3 enable, 4 extension. */
export const changeType = defineEnum('changeType', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
]);

/** Door-opening record: true door opened, false opening failed. */
export const doorRecordResult = defineEnum('doorRecordResult', [{ value: true }, { value: false }]);
