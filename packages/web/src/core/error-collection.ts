import { useErrorLogStore } from '../stores/error-log.ts';

/** Records an error for the error log (spec section 8: message, component, info, URL, stack). */
export function recordError(error: unknown, component: string, info: string): void {
  const err = error instanceof Error ? error : new Error(String(error));
  useErrorLogStore.getState().add({
    error: err.message || String(error),
    component,
    info,
    url: window.location.href,
    stack: err.stack ?? '',
  });
}

let installed = false;

/**
 * Errors that no error boundary sees (event handlers, timers, rejected promises) reach the window.
 * Collected in every build: the spec wants the log enabled in production.
 */
export function installErrorCollection(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (event) => {
    // Failed <img>/<script> loads also fire 'error' (without an Error); only runtime errors are logged.
    if (event.error === undefined && !event.message) return;
    recordError(
      event.error ?? event.message,
      '',
      `window.onerror: ${event.filename ?? ''}:${event.lineno ?? ''}`,
    );
  });
  window.addEventListener('unhandledrejection', (event) => {
    recordError(event.reason, '', 'unhandledrejection');
  });
}
