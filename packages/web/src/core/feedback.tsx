import type { MessageInstance } from 'antd/es/message/interface';
import type { ReactNode } from 'react';

/** Dialogs never close on a backdrop click (spec section 9). */
export const DIALOG_MASK = { closable: false } as const;

/** Content may be a node: the export-finished toast carries a link to its file. */
type Toast = { type: 'success' | 'error' | 'warning' | 'info'; content: ReactNode; duration?: number };

/**
 * Toasts and the logout reminder for code outside React (the request client) and for the login page.
 * antd's message machinery is not part of the first download: <FeedbackHost/> loads right after the first
 * render and attaches itself here; toasts asked for before that are queued and shown when it arrives.
 */
class Feedback {
  private api: MessageInstance | null = null;
  private queue: Toast[] = [];
  private reminder: (() => Promise<void>) | null = null;

  attach(api: MessageInstance, reminder: () => Promise<void>): void {
    this.api = api;
    this.reminder = reminder;
    for (const toast of this.queue.splice(0)) this.show(toast);
  }

  show(toast: Toast): void {
    if (!this.api) {
      this.queue.push(toast);
      return;
    }
    void this.api.open({ type: toast.type, content: toast.content, duration: toast.duration });
  }

  success(content: ReactNode, duration?: number): void {
    this.show({ type: 'success', content, duration });
  }

  error(content: string, duration?: number): void {
    this.show({ type: 'error', content, duration });
  }

  warning(content: string, duration?: number): void {
    this.show({ type: 'warning', content, duration });
  }

  info(content: string, duration?: number): void {
    this.show({ type: 'info', content, duration });
  }

  /** Opens the "logout reminder"; resolves when it closes, whichever button was used. */
  confirmLogout(): Promise<void> {
    return this.reminder?.() ?? Promise.resolve();
  }
}

export const feedback = new Feedback();
