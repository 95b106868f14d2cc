import type { Lang } from '@gatehouse/shared';
import { z } from 'zod';
import type { ServiceContext } from '../context.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are whatever the list returns */
type Row = Record<string, any>;

/** One column of an exported sheet: a field of the list item, its translated header and how to show it. */
export interface ExportColumn<Item extends Row = Row> {
  key: keyof Item & string;
  /** Catalogue key of the header. */
  labelKey: string;
  /**
   * instant: an ISO string shown as local date-time; number: a number cell (a duration); money: integer cents
   * written as a number of yuan formatted 0.00; energy: integer Wh written as a number of kWh formatted 0.000
   * (numbers, so that a sheet can sum them). A flag is a boolean shown through `label`.
   */
  kind?: 'text' | 'number' | 'instant' | 'money' | 'energy';
  /** Translates a coded value (an enumeration) into the operator's language. */
  label?(value: any, lang: Lang): string;
  /**
   * The cell's value when it is not simply the item's field: what the screen shows in that column (a door
   * event has no card, direction or result; null is an empty cell). Then passed through `label`/`kind`.
   */
  value?(item: Item): unknown;
  width?: number;
}

/**
 * Anything a list screen shows can be exported: its list route carries an `exportable` (the resource helper
 * adds it for declared resources; custom lists declare their own), registered here with the route.
 */
export interface Exportable {
  name: string;
  /** Codes that may export it: the same as may read the list. */
  read: readonly string[];
  titleKey: string;
  columns: ExportColumn[];
  /**
   * The list's query without paging: an object of its filters (checked at registration), which
   * parseExportQuery applies strictly so that any other key is refused.
   */
  query: z.ZodType;
  /** Query fields that must be present (a record list's time range). */
  requiresRange?: string[] | undefined;
  /** Extra checks on the parsed query (the 61-day span); throws AppError. */
  checkQuery?(q: Row): void;
  count(ctx: ServiceContext, q: Row): Promise<number>;
  rows(ctx: ServiceContext, q: Row, limit: number): Promise<Row[]>;
}

const exportables = new Map<string, Exportable>();
const listUrls = new Map<string, string>();

/**
 * Registers an export with the URL of the list it exports (what the export comparison test reads). Answers what
 * takes it out again: a test's own export must not stay for the next file of its worker (test files share this
 * module, vitest.config.ts), where the comparison of every export with its list would meet it.
 */
export function registerExportable(exportable: Exportable, listUrl?: string): () => void {
  if (!(exportable.query instanceof z.ZodObject))
    throw new Error(`export ${exportable.name}: its query must be an object of the list's filters`);
  exportables.set(exportable.name, exportable);
  if (listUrl) listUrls.set(exportable.name, listUrl);
  return () => {
    if (exportables.get(exportable.name) !== exportable) return;
    exportables.delete(exportable.name);
    listUrls.delete(exportable.name);
  };
}

/** Every export registered so far, with its list's URL. */
export function registeredExports(): { exportable: Exportable; listUrl: string | undefined }[] {
  return [...exportables.values()].map((exportable) => ({
    exportable,
    listUrl: listUrls.get(exportable.name),
  }));
}

export function findExportable(name: string): Exportable | undefined {
  return exportables.get(name);
}
