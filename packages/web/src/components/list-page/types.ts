import type { ReactNode } from 'react';
import type { ParseKeys } from 'i18next';
import type { EnumDef, ListApi, Validator } from '@gatehouse/shared';
import type { FormInstance } from 'antd';

/** A catalogue key, checked against the Chinese catalogues (shared and web). */
export type TKey = ParseKeys;

export interface Row {
  Id: number;
  [key: string]: unknown;
}

/** An option of a select field or filter: fixed, or loaded (departments, groups, devices…). */
export interface Option {
  value: string | number | boolean;
  label: string;
  color?: string;
  /** Nested options for tree selects (departments). */
  children?: Option[];
}

export type OptionSource =
  | { kind: 'enum'; def: EnumDef }
  | { kind: 'static'; options: (t: (key: TKey) => string) => Option[] }
  | {
      kind: 'remote';
      /** Query key (area-scoped automatically) and loader. */
      key: string;
      load(): Promise<Option[]>;
    };

/** How a column shows its value. */
export type ColumnKind =
  | 'text'
  | 'number'
  /** An ISO instant shown as YYYY-MM-DD HH:mm:ss. */
  | 'instant'
  /** An enumeration value shown as its translated label (a coloured tag when the enum has colours). */
  | 'enum'
  /** The Disabled flag: a switch when the user may write and the resource has SetStatus, else a tag. */
  | 'status'
  /** Money in cents shown as ¥0.00. */
  | 'cents';

export interface ColumnDef<T extends Row> {
  key: keyof T & string;
  title: TKey;
  kind?: ColumnKind;
  enumDef?: EnumDef;
  /** The server's sort key; absent: not sortable. */
  sort?: string;
  width?: number;
  /** Long text: one line with an ellipsis and the full text on hover. */
  ellipsis?: boolean;
  fixed?: 'left' | 'right';
  render?(row: T, t: (key: TKey, options?: Record<string, unknown>) => string): ReactNode;
  /** Hidden on narrow screens. */
  responsive?: ('xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl')[];
  /**
   * A column that yields: shown in the row's expanded detail (the + at the row's start), not in the table,
   * so that a wide table keeps its key columns in view next to its actions at 1440 px (issue 21, item 7).
   */
  secondary?: boolean;
  /** A secondary column that takes the rest of its row in the expanded detail (a small table of its own). */
  detailSpan?: 'filled';
}

/** `treeSelect`: a select over nested options (departments); a value means that node. */
export type FilterKind = 'text' | 'select' | 'treeSelect' | 'bool' | 'dateRange' | 'number';

export interface FilterDef {
  /** The query parameter; for dateRange the range fills StartTime and EndTime. */
  name: string;
  label: TKey;
  kind: FilterKind;
  options?: OptionSource;
  /** Select allows several values? (not for now: one value per parameter) */
  width?: number;
  /** dateRange: required by the list (record lists); the default range is the last `defaultDays`. */
  defaultDays?: number;
  /**
   * dateRange: the longest range the server accepts, in calendar days (both ends counted, as the server's
   * day-span rule counts a whole-day range). Days beyond it from the first day picked are disabled and the
   * label says so.
   */
  maxDays?: number;
  placeholder?: TKey;
  /**
   * The query parameters a value stands for, when they are not `{ [name]: value }` (a "valid now" choice
   * that becomes `ValidAt=<now>`). Called when the filter is applied.
   */
  toQuery?(value: unknown): Record<string, string | number | boolean>;
}

export type FieldKind =
  | 'text'
  | 'password'
  | 'textarea'
  | 'number'
  | 'select'
  | 'multiSelect'
  | 'treeSelect'
  | 'switch'
  | 'date'
  | 'datetime'
  | 'json'
  /** Money: the item and the body hold integer cents, the control shows yuan with two decimals. */
  | 'cents';

export interface FieldDef<T extends Row = Row> {
  name: string;
  label: TKey;
  kind: FieldKind;
  /** Shared validators (required, phone, chineseName…) checked in the browser, as the server does. */
  rules?: Validator[];
  required?: boolean;
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
  options?: OptionSource;
  placeholder?: TKey;
  extra?: TKey;
  /** Only when creating, or only when editing. */
  only?: 'create' | 'edit';
  /** Read-only when editing (a user name, a serial number). */
  lockedOnEdit?: boolean;
  /** Form value ← item value (default: the item's field of the same name). */
  fromItem?(item: T): unknown;
  /** Spans both columns of the dialog's two-column layout. */
  wide?: boolean;
  /** A field the form shows only when this returns true for the current values. */
  visible?(values: Record<string, unknown>): boolean;
  /** A control of the page's own; it takes FieldControlProps and passes them to its input. */
  render?(form: FormInstance): ReactNode;
}

/**
 * What a Form.Item gives the control inside it besides value and onChange. A control of our own passes
 * them to its input: the field's `<label for>` names the input by this id (a generated one would leave it
 * without a name for screen readers) and the field's messages are linked by aria-describedby.
 */
export interface FieldControlProps {
  id?: string;
  'aria-describedby'?: string;
}

export interface FormDef<T extends Row> {
  fields: FieldDef<T>[];
  /** Form values → request body; default: the values as they are (plus Id when editing). */
  toBody?(values: Record<string, unknown>, item: T | null): Record<string, unknown>;
  /** Dialog width; two columns from 720. */
  width?: number;
  /** Values a new record's form opens with (a validity starting now); called each time it opens. */
  defaults?(): Record<string, unknown>;
  /**
   * Checks across fields, on the body about to be sent (the shared rule the server applies, such as a
   * tariff's terms): each problem is shown on its field and nothing is sent.
   */
  check?(body: Record<string, unknown>, item: T | null): FormProblem[];
  /**
   * API fields the form types as another field (Passcodes as the text PasscodesText): the server's messages on
   * them, or on a path into them ("Passcodes.0"), are shown on that form field.
   */
  serverFields?: Record<string, string>;
}

/** A problem `FormDef.check` found: the field it belongs to and a catalogue key of the message. */
export interface FormProblem {
  field: string;
  key: string;
  params?: Record<string, unknown>;
}

export interface RowAction<T extends Row> {
  key: string;
  label: TKey;
  /** Codes that may use it (default: the page's write codes). */
  codes?: readonly string[];
  visible?(row: T): boolean;
  /** A confirmation question before running. */
  confirm?: TKey;
  danger?: boolean;
  run(row: T): void | Promise<unknown>;
}

/**
 * An action on the rows ticked in the table (assign, revoke, extend…): a toolbar button, off while none is
 * ticked. `run` resolves when the action is done (the ticks are cleared and the list reloads) and rejects
 * when it was abandoned (a dialog cancelled: the ticks stay).
 */
export interface BatchAction<T extends Row> {
  key: string;
  label: TKey;
  /** Codes that may use it (default: the page's write codes). */
  codes?: readonly string[];
  /** A confirmation question before running; `{{count}}` is the number of ticked rows. */
  confirm?: TKey;
  danger?: boolean;
  run(rows: T[]): Promise<unknown>;
}

/**
 * What a list page calls: a resource's operations (the contract's `resourceApi`), or a list with a service
 * of its own (a record list) that offers none of the standard writes (`ListApi` in the contract).
 */
export type { ListApi };

export interface ListPageConfig<T extends Row> {
  /** The resource's operations: list, export and the standard writes it offers. */
  api: ListApi;
  /** Codes that may list and export; codes that may write (create, edit, delete, status). */
  read: readonly string[];
  write: readonly string[];
  columns: ColumnDef<T>[];
  filters?: FilterDef[];
  form?: FormDef<T>;
  /** Which standard actions the resource offers. */
  actions?: {
    create?: boolean;
    edit?: boolean;
    remove?: boolean;
    batchRemove?: boolean;
    status?: boolean;
    export?: boolean;
  };
  rowActions?: RowAction<T>[];
  /** Actions on the ticked rows (the table offers ticks when any is permitted). */
  batchActions?: BatchAction<T>[];
  /** Extra buttons next to "create" (batch grant, import…). */
  toolbar?: ReactNode;
  /** Fixed query parameters (a page showing one kind of rows). */
  fixedQuery?: Record<string, string | number | boolean>;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /**
   * Filter values the list opens with besides the defaults (a link to "this host's sockets"); Reset goes
   * back to the defaults. Give the page a new `key` when they change.
   */
  initialFilters?: Record<string, unknown>;
  /** For APIs older than the resource shape (areas): calls that replace the standard ones. */
  endpoints?: {
    create?(body: Record<string, unknown>): Promise<unknown>;
    update?(body: Record<string, unknown>): Promise<unknown>;
    remove?(ids: number[]): Promise<unknown>;
    setStatus?(id: number, disabled: boolean): Promise<unknown>;
  };
  /**
   * Keys of remote option sources this resource feeds (a new zone is a choice in the host form): they are
   * loaded again after every write here.
   */
  invalidates?: readonly string[];
  /**
   * Other resources whose lists show what a write here changes (a new host changes its zone's socket
   * counts): they are loaded again after every write here, also on pages kept open in other tabs.
   */
  refreshes?: readonly string[];
  /** Row key for tests and stable rendering. */
  testId?: string;
}

/** A page of a list (TotalCapped, RetainedFrom): the shared contract's. */
export type { Page } from '@gatehouse/shared';
