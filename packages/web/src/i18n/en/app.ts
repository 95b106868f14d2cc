export const app = {
  siteTitle: 'Backend Management System',
  sidebarTitle: 'Management System',
  loading: 'Loading…',
};

export const ui = {
  ok: 'OK',
  cancel: 'Cancel',
  save: 'Save',
  close: 'Close',
  back: 'Back',
  retry: 'Retry',
  copy: 'Copy',
  copied: 'Copied: {{text}}',
  search: 'Search',
  none: 'None',
  yes: 'Yes',
  no: 'No',
};

export const request = {
  logoutTitle: 'Logout reminder',
  logoutMessage: 'Login expired, please log in again?',
  relogin: 'Log in again',
  cancel: 'Cancel',
  genericError: 'Something went wrong',
  requestError: 'Request error',
};

export const session = {
  verificationFailed: 'Verification failed, please Login again.',
  rolesRequired: 'info: roles must be a non-null array!',
};

export const area = {
  switch: 'Area switch',
  placeholder: 'Select an area',
  noArea: 'The current user has no operable area, please contact the administrator',
  queryFailed: 'Failed to query area info',
  switched: 'Switched to {{name}}',
};

export const message = {
  switchLanguageSuccess: 'Switch Language Success',
  switchSizeSuccess: 'Switch Size Success',
  fullscreenUnsupported: 'Your browser can not work in full screen',
};
