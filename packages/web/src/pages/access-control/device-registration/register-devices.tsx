import { Form, Typography, type FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DeviceRegistrationApi,
  PROTOCOL_OTHER,
  PROTOCOL_WG,
  accessControlProtocol,
  accessControlType,
  commaDigits,
  parseSerialNumbers,
  wgTypeFromSerial,
} from '@gatehouse/shared';
import type { FormDef, FormProblem, Row } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { poolTargetFields } from '../pool/filters.ts';

/** Serial numbers looked up at most, one request each (a registration is a handful of devices). */
const LOOKUP_MAX = 50;

/**
 * Which of these serial numbers are registered already (issue 21, item 11): the preview says so before saving,
 * instead of the server refusing after. Looked up through the registration list's keyword, matched exactly.
 */
function useRegistered(serials: string[]): string[] {
  const wanted = [...new Set(serials)].slice(0, LOOKUP_MAX).sort();
  const found = useQuery({
    queryKey: ['DeviceRegistration', 'registered', wanted],
    enabled: wanted.length > 0,
    staleTime: 10_000,
    queryFn: async () => {
      const pages = await Promise.all(
        wanted.map((serial) =>
          call(DeviceRegistrationApi.list, {
            query: { Keyword: serial, PageIndex: 1, PageSize: 10 },
          } as never),
        ),
      );
      const known = new Set(
        pages.flatMap((page) =>
          (page as { Items: { SerialNumber: string }[] }).Items.map((d) => d.SerialNumber),
        ),
      );
      return wanted.filter((serial) => known.has(serial));
    },
  });
  return found.data ?? [];
}

/**
 * The registration form: serial numbers (the spec's comma rule), protocol, the model for protocol Other (a
 * WG serial names its own), an optional area to assign to at once, a remark. A preview counts what will be
 * registered and by which model, from the same shared rules the server applies.
 */
export const registerDevicesForm: FormDef<Row> = {
  width: 640,
  fields: [
    {
      name: 'SerialNumbers',
      label: 'accessControl.field.SerialNumbers',
      kind: 'textarea',
      rules: [commaDigits],
      wide: true,
      placeholder: 'acUi.device.serialPlaceholder',
    },
    {
      name: 'Preview',
      label: 'acUi.preview',
      kind: 'text',
      wide: true,
      render: (form) => <SerialPreview form={form} />,
    },
    {
      name: 'Protocol',
      label: 'accessControl.field.Protocol',
      kind: 'select',
      required: true,
      options: { kind: 'enum', def: accessControlProtocol },
      extra: 'acUi.device.wgTypeHint',
    },
    {
      name: 'Type',
      label: 'accessControl.field.Type',
      kind: 'select',
      options: { kind: 'enum', def: accessControlType },
      visible: (values) => values.Protocol === PROTOCOL_OTHER,
    },
    ...poolTargetFields,
  ],
  check: (body) => serialProblems(body.SerialNumbers, body.Protocol),
};

export const REGISTER_DEFAULTS = { Protocol: PROTOCOL_WG };

/** What the server would refuse in the serial numbers: the list rule, and for WG a first digit naming no model. */
export function serialProblems(text: unknown, protocol: unknown): FormProblem[] {
  const parsed = parseSerialNumbers(text);
  if (!parsed.ok)
    return [
      {
        field: 'SerialNumbers',
        key: parsed.error.key,
        ...(parsed.error.params ? { params: parsed.error.params } : {}),
      },
    ];
  if (protocol !== PROTOCOL_WG) return [];
  const foreign = parsed.value.find((serial) => wgTypeFromSerial(serial) === null);
  return foreign
    ? [{ field: 'SerialNumbers', key: 'accessControl.error.wgSerialType', params: { serial: foreign } }]
    : [];
}

/** "3 devices: single door two-way 1, two doors two-way 2", or why the list is not valid yet. */
function SerialPreview({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const text = Form.useWatch('SerialNumbers', form) as string | undefined;
  const protocol = Form.useWatch('Protocol', form) as number | undefined;
  const type = Form.useWatch('Type', form) as number | undefined;
  const parsed = parseSerialNumbers(text?.trim() ?? '');
  const registered = useRegistered(parsed.ok ? parsed.value : []);
  if (!text?.trim() || !parsed.ok)
    return <Typography.Text type="secondary">{t('acUi.device.previewEmpty')}</Typography.Text>;
  const byType = new Map<number | null, number>();
  for (const serial of parsed.value) {
    const model = protocol === PROTOCOL_WG ? wgTypeFromSerial(serial) : (type ?? 0);
    byType.set(model, (byType.get(model) ?? 0) + 1);
  }
  const parts = [...byType].map(([model, count]) =>
    model === null
      ? t('acUi.device.previewForeign', { count })
      : t('acUi.device.previewModel', { model: t(`enum.accessControlType.${model}` as never), count }),
  );
  return (
    <Typography.Text className="ac-preview" data-testid="serial-preview">
      {t('acUi.device.previewCount', { count: parsed.value.length })}
      {parts.join(t('acUi.separator'))}
      {registered.length > 0 && (
        <Typography.Text type="danger" data-testid="serial-duplicates" style={{ display: 'block' }}>
          {t('acUi.device.previewDuplicates', { serials: registered.join(', '), count: registered.length })}
        </Typography.Text>
      )}
    </Typography.Text>
  );
}
