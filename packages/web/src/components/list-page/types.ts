import type { ReactNode } from 'react';
import type { ParseKeys } from 'i18next';
import type { EnumDef, Validator } from '@gatehouse/shared';
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
}

export type FilterKind = 'text' | 'select' | 'bool' | 'dateRange' | 'number';

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
  placeholder?: TKey;
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
  | 'json';

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
  render?(form: FormInstance): ReactNode;
}

export interface FormDef<T extends Row> {
  fields: FieldDef<T>[];
  /** Form values → request body; default: the values as they are (plus Id when editing). */
  toBody?(values: Record<string, unknown>, item: T | null): Record<string, unknown>;
  /** Dialog width; two columns from 720. */
  width?: number;
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

export interface ListPageConfig<T extends Row> {
  /** The API resource: /api/{resource}. */
  resource: string;
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
  /** Extra buttons next to "create" (batch grant, import…). */
  toolbar?: ReactNode;
  /** Fixed query parameters (a page showing one kind of rows). */
  fixedQuery?: Record<string, string | number | boolean>;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** For APIs older than the resource shape (areas): calls that replace the standard ones. */
  endpoints?: {
    create?(body: Record<string, unknown>): Promise<unknown>;
    update?(body: Record<string, unknown>): Promise<unknown>;
    remove?(ids: number[]): Promise<unknown>;
    setStatus?(id: number, disabled: boolean): Promise<unknown>;
  };
  /** Row key for tests and stable rendering. */
  testId?: string;
  /** Scroll width of the table when columns exceed the screen. */
  scrollX?: number;
}

export interface Page<T> {
  Items: T[];
  Total: number;
}
