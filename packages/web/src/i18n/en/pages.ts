export const login = {
  title: 'Login Form',
  username: 'Username',
  password: 'Password',
  logIn: 'Log in',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  thirdparty: 'Or connect with',
  thirdpartyTips: 'Third-party login is not implemented yet; please log in with your username and password.',
  usernameRequired: 'Please enter the username',
  passwordRequired: 'Please enter the password',
  capsLock: 'Caps lock is On',
};

export const authRedirect = {
  text: 'Returning to the login page…',
};

export const dashboard = {
  welcome: 'Welcome back, {{name}}',
  intro: 'Pick a task in the menu on the left; the top bar switches area, language and size.',
  currentArea: 'Current area',
  noArea: 'No area assigned',
  areaName: 'Area name',
  address: 'Address',
  contact: 'Contact phone',
  timezone: 'Time zone',
  roles: 'Permissions',
  quickLinks: 'Quick links',
  noQuickLinks: 'No business menus available',
  latestEvents: 'Latest events',
  noEvents: 'No swipe or door event in the last 24 hours',
  allEvents: 'All records',
};

export const profile = {
  title: 'Profile',
  account: 'Account',
  userName: 'Username',
  name: 'Name',
  avatar: 'Avatar path',
  avatarHint: 'Image path, relative to the image server address: {{base}}',
  save: 'Save profile',
  saved: 'Profile saved',
  password: 'Change password',
  oldPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  passwordMismatch: 'The two passwords do not match',
  changePassword: 'Change password',
  passwordChanged: 'Password changed',
};

export const errorPage = {
  title401: 'No permission',
  text401: 'You do not have permission to open this page. Contact the administrator or go back home.',
  title404: 'Page not found',
  text404: 'The page you are looking for does not exist or has been removed. Check the address.',
  home: 'Back to home',
  back: 'Go back',
};

export const errorLogPage = {
  intro: 'Runtime errors are collected in the error log of the top bar; click its bug icon to see them.',
  renderError: 'Trigger a rendering error',
  eventError: 'Trigger an event error',
  open: 'Open the error log',
  count: '{{count}} errors collected',
};

export const i18nDemo = {
  title: 'I18n demo',
  intro: 'After switching language, texts, dates and components use that language.',
  language: 'Current language',
  date: 'Date picker',
  pagination: 'Pagination',
  empty: 'Empty state',
  confirm: 'Confirm',
  confirmText: 'Are you sure you want to do this?',
  interpolation: 'Interpolation: hello, {{name}}!',
  today: 'Today is {{date}}',
};

export const icons = {
  title: 'Icons',
  intro: 'Click an icon to copy its component code.',
  filter: 'Filter by name',
};
