import { useEffect, useRef, type ReactNode } from 'react';
import { Col, DatePicker, Form, Input, InputNumber, Row as GridRow, Switch, type FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  antdRule,
  centsFromYuan,
  formatCents,
  parseCustom,
  required as requiredRule,
  textMaxLength,
  type ListApi,
  type ValidationKey,
} from '@gatehouse/shared';
import { DIALOG_MASK } from '../../core/feedback.tsx';
import { serverFieldErrors } from '../../core/field-errors.ts';
import { fromSitePicker, toSitePicker } from '../../core/site-time.ts';
import { SiteZoneNote } from '../SiteZoneNote.tsx';
import { feedback } from '../../core/feedback.tsx';
import { OptionSelect } from './OptionSelect.tsx';
import type { FieldDef, FormDef, FormProblem, Row, TKey } from './types.ts';
import { PageModal } from '../PageModal.tsx';
import { useSaving } from '../use-saving.ts';

interface Props<T extends Row> {
  open: boolean;
  title: string;
  form: FormDef<T>;
  /** The row being edited, or null to create. */
  item: T | null;
  /** Preset values when creating (the parent of a new child). */
  defaults?: Record<string, unknown>;
  /**
   * The contract's body schema of this save (create or update): a text field's maximum length, its counter
   * and its rule come from it, so they are the server's.
   */
  schema?: unknown;
  onClose(): void;
  onSubmit(body: Record<string, unknown>): Promise<unknown>;
}

type Values = Record<string, unknown>;

/** Item value → form value: dates become dayjs, JSON objects text, cents yuan. */
function toFormValue(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return field.kind === 'switch' ? false : undefined;
  // A date is a calendar day ('YYYY-MM-DD', no zone); a date-time an instant shown at the site.
  if (field.kind === 'date') return dayjs(value as string);
  if (field.kind === 'datetime') return toSitePicker(value as string) ?? undefined;
  if (field.kind === 'cents' && typeof value === 'number') return Number(formatCents(value));
  return value;
}

/** Yuan as the money control holds it (two decimals at most) → whole cents, exactly. */
export function yuanToCents(yuan: number): number | null {
  return centsFromYuan(yuan.toFixed(2));
}

/** Form value → body value: dayjs becomes 'YYYY-MM-DD' (date) or ISO (date-time), blank text null, yuan cents. */
function toBodyValue(field: FieldDef, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (field.kind === 'cents') return typeof value === 'number' ? yuanToCents(value) : null;
  if (dayjs.isDayjs(value))
    return field.kind === 'date' ? (value as Dayjs).format('YYYY-MM-DD') : fromSitePicker(value as Dayjs);
  if (typeof value === 'string' && value.trim() === '' && field.kind !== 'password') return null;
  if (typeof value === 'string' && field.kind !== 'password' && field.kind !== 'json') return value.trim();
  return value;
}

export function initialValues<T extends Row>(def: FormDef<T>, item: T | null): Values {
  const values: Values = {};
  for (const field of def.fields) {
    const raw = item ? (field.fromItem ? field.fromItem(item) : item[field.name]) : undefined;
    values[field.name] = toFormValue(field, raw);
  }
  return values;
}

export function formBody<T extends Row>(
  def: FormDef<T>,
  values: Values,
  item: T | null,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of def.fields) {
    if (field.only === 'create' && item) continue;
    if (field.only === 'edit' && !item) continue;
    if (field.lockedOnEdit && item) continue;
    if (field.visible && !field.visible(values)) continue;
    const value = toBodyValue(field, values[field.name]);
    if (value !== undefined) body[field.name] = value;
  }
  const shaped = def.toBody ? def.toBody(body, item) : body;
  return item ? { Id: item.Id, ...shaped } : shaped;
}

interface ControlProps {
  /** What Form.Item injects: value and onChange (checked for switches). */
  control: Record<string, unknown>;
  field: FieldDef;
  disabled: boolean;
  placeholder: string | undefined;
  testId: string;
}

const FULL_WIDTH = { width: '100%' };

/** The antd control of each field kind; text is the default. */
const CONTROLS: Partial<Record<FieldDef['kind'], (p: ControlProps) => ReactNode>> = {
  password: ({ control, field, testId }) => (
    <Input.Password
      {...control}
      autoComplete="new-password"
      maxLength={field.maxLength}
      showCount={Boolean(field.maxLength)}
      data-testid={testId}
    />
  ),
  textarea: ({ control, field, placeholder, testId }) => (
    <Input.TextArea
      {...control}
      rows={3}
      maxLength={field.maxLength}
      showCount={Boolean(field.maxLength)}
      placeholder={placeholder}
      data-testid={testId}
    />
  ),
  json: ({ control, testId }) => (
    <Input.TextArea
      {...control}
      rows={8}
      className="list-page-json"
      placeholder='{ "address": "…" }'
      data-testid={testId}
    />
  ),
  number: ({ control, field, disabled, testId }) => (
    <InputNumber
      {...control}
      min={field.min}
      max={field.max}
      style={FULL_WIDTH}
      disabled={disabled}
      data-testid={testId}
    />
  ),
  switch: ({ control, testId }) => <Switch {...control} data-testid={testId} />,
  cents: ({ control, field, disabled, testId }) => (
    <InputNumber
      {...control}
      min={(field.min ?? 0) / 100}
      max={field.max === undefined ? undefined : field.max / 100}
      precision={2}
      prefix="¥"
      style={FULL_WIDTH}
      disabled={disabled}
      data-testid={testId}
    />
  ),
  date: ({ control, disabled, testId }) => (
    <DatePicker {...control} style={FULL_WIDTH} disabled={disabled} data-testid={testId} />
  ),
  datetime: ({ control, disabled, testId }) => (
    <DatePicker {...control} showTime style={FULL_WIDTH} disabled={disabled} data-testid={testId} />
  ),
  select: optionControl,
  multiSelect: optionControl,
  treeSelect: optionControl,
};

function optionControl({ control, field, disabled, testId }: ControlProps) {
  return (
    <OptionSelect
      {...control}
      source={field.options}
      multiple={field.kind === 'multiSelect'}
      tree={field.kind === 'treeSelect'}
      disabled={disabled}
      placeholder={field.placeholder}
      testId={testId}
    />
  );
}

/**
 * One control of the dialog. Form.Item injects `value`, `onChange` (and `checked` for switches) into its
 * direct child, so they arrive here and are handed on to the antd control.
 */
function FieldControl({
  field,
  editing,
  ...control
}: {
  field: FieldDef;
  editing: boolean;
  [prop: string]: unknown;
}) {
  const { t } = useTranslation();
  const props: ControlProps = {
    control,
    field,
    disabled: Boolean(field.lockedOnEdit && editing),
    placeholder: field.placeholder ? t(field.placeholder) : undefined,
    testId: `field-${field.name}`,
  };
  const render = CONTROLS[field.kind ?? 'text'];
  if (render) return render(props);
  return (
    <Input
      {...control}
      maxLength={field.maxLength}
      // How many characters are left, where there is a limit (a name stopping at 50 says why).
      showCount={Boolean(field.maxLength) && !props.disabled}
      disabled={props.disabled}
      placeholder={props.placeholder}
      data-testid={props.testId}
    />
  );
}

/** A field's browser-side rules: required, the shared validators, lengths, and JSON for a json field. */
function fieldRules(field: FieldDef, t: TFunction) {
  const translate = (key: ValidationKey) => t(key);
  return [
    ...(field.required ? [antdRule(translate, requiredRule)] : []),
    ...(field.rules?.length ? [antdRule(translate, ...field.rules)] : []),
    ...(field.maxLength
      ? [{ max: field.maxLength, message: t('validation.tooLong', { max: field.maxLength }) }]
      : []),
    ...(field.minLength
      ? [{ min: field.minLength, message: t('validation.tooShort', { min: field.minLength }) }]
      : []),
    ...(field.kind === 'json'
      ? [
          {
            validator: (_: unknown, value: unknown) =>
              typeof value !== 'string' || value.trim() === '' || parseCustom(value) !== null
                ? Promise.resolve()
                : Promise.reject(new Error(t('validation.json'))),
          },
        ]
      : []),
  ];
}

/**
 * The server's refusal on the fields it names, a path into a field ("Passcodes.0") on that field, an API field
 * the form types otherwise on its form field (`FormDef.serverFields`); a toast, in the operator's words only,
 * for the rest.
 */
function showServerErrors(form: FormInstance<Values>, def: FormDef<Row>, error: unknown) {
  const { fields, rest } = serverFieldErrors(
    error,
    def.fields.map((f) => f.name),
    def.serverFields,
  );
  form.setFields(fields);
  if (rest) feedback.error(rest, 3);
}

/** Shows problems of a cross-field check on their fields (or as a toast for a field not on screen). */
function showProblems(
  form: FormInstance<Values>,
  def: FormDef<Row>,
  problems: FormProblem[],
  current: Values,
  t: TFunction,
) {
  const shown = new Set(
    def.fields.filter((f) => !f.visible || f.visible(current)).map((f) => f.name as string),
  );
  const message = (p: FormProblem) => String(t(p.key as TKey, p.params as never));
  form.setFields(
    problems.filter((p) => shown.has(p.field)).map((p) => ({ name: p.field, errors: [message(p)] })),
  );
  const elsewhere = problems.filter((p) => !shown.has(p.field));
  if (elsewhere.length) feedback.error(elsewhere.map(message).join('; '), 3);
}

/** The fields the dialog shows now: those of creating or editing, visible with the current values. */
function shownFields<T extends Row>(def: FormDef<T>, item: T | null, values: Values): FieldDef[] {
  return def.fields.filter(
    (f) =>
      !(f.only === 'create' && item) && !(f.only === 'edit' && !item) && (!f.visible || f.visible(values)),
  );
}

/** One field in the dialog's grid: its label, rules, hint and control (or the declaration's own render). */
function FieldItem(props: { field: FieldDef; form: FormInstance<Values>; editing: boolean; half: boolean }) {
  const { t } = useTranslation();
  const { field, form, editing, half } = props;
  return (
    <Col span={half ? 12 : 24}>
      <Form.Item
        name={field.name}
        label={t(field.label)}
        rules={fieldRules(field, t)}
        valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
        extra={
          field.extra ? (
            t(field.extra as TKey)
          ) : field.kind === 'datetime' ? (
            // A time typed abroad is the site's time: say so where the clocks differ.
            <SiteZoneNote />
          ) : undefined
        }
      >
        {field.render ? field.render(form) : <FieldControl field={field} editing={editing} />}
      </Form.Item>
    </Col>
  );
}

/**
 * The create/edit dialog of a list: fields from the declaration, the shared validators in the browser,
 * and the server's per-field messages on the fields when it still refuses. A backdrop click never
 * closes it; the form is kept when a save fails.
 */
export function FormDialog<T extends Row>({
  open,
  title,
  form: def,
  item,
  defaults,
  schema,
  onClose,
  onSubmit,
}: Props<T>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, withSaving] = useSaving();
  const values = Form.useWatch([], form) as Values | undefined;
  const wide = (def.width ?? 560) >= 720;

  // The form is filled once per opening. Its page may be kept alive in a tab and hidden in React's Activity
  // (AppMain), which tears effects down while hidden and runs them again when shown: without this mark the
  // reveal would refill the form and lose what the user typed before leaving the tab.
  const filledFor = useRef<readonly unknown[] | null>(null);
  useEffect(() => {
    if (!open) {
      filledFor.current = null;
      return;
    }
    const opening = [item, def, defaults] as const;
    if (filledFor.current?.every((value, i) => value === opening[i])) return;
    filledFor.current = opening;
    form.resetFields();
    form.setFieldsValue({
      ...initialValues(def, item),
      ...(item ? {} : { ...def.defaults?.(), ...defaults }),
    });
  }, [open, item, def, form, defaults]);

  async function submit() {
    const current = await form.validateFields();
    const body = formBody(def, current, item);
    const problems = def.check?.(body, item) ?? [];
    if (problems.length) {
      showProblems(form, def, problems, current, t);
      return;
    }
    await withSaving(async () => {
      try {
        await onSubmit(body);
        onClose();
      } catch (error) {
        showServerErrors(form, def, error);
      }
    });
  }

  // A text field's limit is the contract's when it declares one (else the field's own).
  const fields = shownFields(def, item, values ?? {}).map((field) => {
    const max = textMaxLength(schema, field.name);
    return max === undefined ? field : { ...field, maxLength: max };
  });
  return (
    <PageModal
      open={open}
      title={title}
      width={def.width ?? 560}
      mask={DIALOG_MASK}
      keyboard={false}
      destroyOnHidden
      okText={t('list.save')}
      cancelText={t('list.cancel')}
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'dialog-ok' } as never}
    >
      {/* Values are kept when a field unmounts (the default): a hidden page's fields unmount with its effects
          (Activity) and must find their values again when it is shown. A field hidden by its condition is still
          left out of the body (formBody), and validateFields returns the shown fields only. */}
      <Form form={form} layout="vertical" data-testid="record-form">
        <GridRow gutter={16}>
          {fields.map((field) => (
            <FieldItem
              key={field.name}
              field={field}
              form={form}
              editing={item !== null}
              half={wide && !field.wide && field.kind !== 'json' && field.kind !== 'textarea'}
            />
          ))}
        </GridRow>
      </Form>
    </PageModal>
  );
}

/** What a list's dialog is open on: an item to edit, or a new one (with presets: a tree's new child). */
export interface Editing<T> {
  item: T | null;
  defaults?: Record<string, unknown>;
}

/**
 * The create/edit dialog of a declared resource's page (a list, a tree): open while `editing`, titled
 * "edit" or "create" with the page's title, checked against the update's or the create's body.
 */
export function EditDialog<T extends Row>({
  editing,
  title,
  form,
  api,
  onClose,
  onSubmit,
}: {
  editing: Editing<T> | null;
  title: string;
  form: FormDef<T>;
  api: Pick<ListApi, 'create' | 'update'>;
  onClose(): void;
  onSubmit(body: Record<string, unknown>): Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <FormDialog<T>
      open={editing !== null}
      item={editing?.item ?? null}
      defaults={editing?.defaults}
      title={`${t(editing?.item ? 'list.edit' : 'list.create')} · ${title}`}
      form={form}
      schema={(editing?.item ? api.update : api.create)?.body}
      onClose={onClose}
      onSubmit={onSubmit}
    />
  );
}
