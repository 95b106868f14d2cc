import { create } from 'zustand';

/** One collected runtime error (spec section 3: error, component, info, url; the dialog also shows the stack). */
export interface ErrorLogEntry {
  id: number;
  error: string;
  component: string;
  info: string;
  url: string;
  stack: string;
  time: number;
}

interface ErrorLogState {
  logs: ErrorLogEntry[];
  add(entry: Omit<ErrorLogEntry, 'id' | 'time'>): void;
  clear(): void;
}

/** Kept small: a render loop must not fill the memory with copies of one error. */
export const ERROR_LOG_MAX = 100;
let nextId = 1;

export const useErrorLogStore = create<ErrorLogState>()((set) => ({
  logs: [],
  add: (entry) =>
    set((s) => ({ logs: [...s.logs, { ...entry, id: nextId++, time: Date.now() }].slice(-ERROR_LOG_MAX) })),
  clear: () => set({ logs: [] }),
}));
