import type { errors as zh } from '../zh/errors.ts';

export const errors: Record<keyof typeof zh, string> = {
  badRequest: 'The request is not valid',
  validation: 'Some fields are not valid',
  unauthorized: 'Your session has expired, please log in again',
  forbidden: 'You do not have permission for this action',
  areaForbidden: 'You may not operate this area',
  areaRequired: 'Please select an area first',
  notFound: 'The record does not exist or has been deleted',
  routeNotFound: 'No such API endpoint',
  conflict: 'The data has changed, please refresh and try again',
  internal: 'Internal server error, please try again later',
  loginFailed: 'Incorrect username or password',
  loginThrottled: 'Too many failed logins, please try again in {{minutes}} minutes',
  accountDisabled: 'This account is disabled, please contact the administrator',
  oldPasswordWrong: 'The current password is incorrect',
  invalidJson: 'Not valid JSON',
  userNameTaken: 'This username is already taken',
  areaNameTaken: 'An area with this name already exists',
  areaDisabled: 'This area is disabled',
  builtInAdmin: 'The built-in administrator cannot be disabled or deleted',
  ownAccountOnly: 'You can only change your own account',
};
