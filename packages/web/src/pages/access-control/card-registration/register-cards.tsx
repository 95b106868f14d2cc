import { Form, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  CARD_MODES,
  cardNumber,
  cardNumberList,
  cardType,
  expandCardRange,
  parseCardNumber,
  parseCardNumberList,
  type RuleResult,
} from '@gatehouse/shared';
import type { CardMode as Mode } from '@gatehouse/shared';
import type { FormDef, FormProblem, Row } from '../../../components/list-page/index.ts';
import { deviceCardValue } from '../cells.tsx';
import { poolTargetFields } from '../pool/filters.ts';

const modeIs = (mode: Mode) => (values: Record<string, unknown>) => values.Mode === mode;

/**
 * The card registration form: one number, a comma-separated list or a range (the spec's two card rules),
 * the card type, an optional area to assign to at once. A preview shows the count and, for a single card,
 * both forms of its number (printed and as a controller reports it).
 */
export const registerCardsForm: FormDef<Row> = {
  width: 640,
  fields: [
    {
      name: 'Mode',
      label: 'accessControl.field.RegistrationMode',
      kind: 'select',
      required: true,
      options: {
        kind: 'static',
        options: (t) => CARD_MODES.map((m) => ({ value: m, label: t(`accessControl.cardMode.${m}`) })),
      },
    },
    {
      name: 'CardType',
      label: 'accessControl.field.CardType',
      kind: 'select',
      required: true,
      options: { kind: 'enum', def: cardType },
    },
    {
      name: 'CardNumber',
      label: 'accessControl.field.CardNumber',
      kind: 'text',
      required: true,
      rules: [cardNumber],
      maxLength: 10,
      wide: true,
      visible: modeIs('Single'),
    },
    {
      name: 'CardNumbers',
      label: 'accessControl.field.CardNumbers',
      kind: 'textarea',
      required: true,
      rules: [cardNumberList],
      wide: true,
      placeholder: 'acUi.card.listPlaceholder',
      visible: modeIs('List'),
    },
    {
      name: 'StartNumber',
      label: 'accessControl.field.StartNumber',
      kind: 'text',
      required: true,
      rules: [cardNumber],
      maxLength: 10,
      visible: modeIs('Range'),
    },
    {
      name: 'EndNumber',
      label: 'accessControl.field.EndNumber',
      kind: 'text',
      required: true,
      rules: [cardNumber],
      maxLength: 10,
      visible: modeIs('Range'),
    },
    {
      name: 'Preview',
      label: 'acUi.preview',
      kind: 'text',
      wide: true,
      render: (form) => <CardPreview form={form} />,
    },
    ...poolTargetFields,
  ],
  check: (body) => cardProblems(body),
};

export const REGISTER_CARD_DEFAULTS = { Mode: 'Single', CardType: 0 };

/** The cards a form's values stand for, by the shared rules (the server expands them the same way). */
export function cardsOf(values: Record<string, unknown>): { field: string; result: RuleResult<string[]> } {
  switch (values.Mode as Mode) {
    case 'List':
      return { field: 'CardNumbers', result: parseCardNumberList(values.CardNumbers ?? '') };
    case 'Range':
      return { field: 'EndNumber', result: expandCardRange(values.StartNumber, values.EndNumber) };
    default: {
      const one = parseCardNumber(values.CardNumber ?? '');
      return { field: 'CardNumber', result: one.ok ? { ok: true, value: [one.value] } : one };
    }
  }
}

function cardProblems(body: Record<string, unknown>): FormProblem[] {
  const { field, result } = cardsOf(body);
  if (result.ok) return [];
  return [{ field, key: result.error.key, ...(result.error.params ? { params: result.error.params } : {}) }];
}

function CardPreview({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const values = {
    Mode: Form.useWatch('Mode', form) as unknown,
    CardNumber: (Form.useWatch('CardNumber', form) as string | undefined)?.trim(),
    CardNumbers: (Form.useWatch('CardNumbers', form) as string | undefined)?.trim(),
    StartNumber: (Form.useWatch('StartNumber', form) as string | undefined)?.trim(),
    EndNumber: (Form.useWatch('EndNumber', form) as string | undefined)?.trim(),
  };
  const { result } = cardsOf(values);
  if (!result.ok || result.value.length === 0)
    return <Typography.Text type="secondary">{t('acUi.card.previewEmpty')}</Typography.Text>;
  const first = result.value[0]!;
  const last = result.value[result.value.length - 1]!;
  return (
    <Typography.Text className="ac-preview" data-testid="card-preview">
      {result.value.length === 1
        ? t('acUi.card.previewOne', { printed: first, value: deviceCardValue(first) ?? '-' })
        : t('acUi.card.previewMany', { count: result.value.length, first, last })}
    </Typography.Text>
  );
}
