import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAX_PASS_UNITS, MonthlyPassApi, formatCents, type InputOf } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { FormDialog, type FormDef, type Row } from '../../../components/list-page/index.ts';
import { monthlyRuleOptions } from '../options.ts';
import { VehicleSelect } from '../vehicle/VehicleSelect.tsx';
import { formatSiteTime, siteNow } from '../../../core/site-time.ts';
import { closeDialog, useGarageDialogs } from '../dialogs.ts';

const form: FormDef<Row> = {
  width: 720,
  fields: [
    {
      name: 'VehicleId',
      label: 'garage.field.Vehicle',
      kind: 'select',
      required: true,
      wide: true,
      render: () => <VehicleSelect />,
    },
    {
      name: 'ChargeRuleId',
      label: 'garage.field.RuleName',
      kind: 'select',
      required: true,
      options: monthlyRuleOptions,
      extra: 'garageUi.pass.ruleHint',
    },
    {
      name: 'Units',
      label: 'garage.field.Units',
      kind: 'number',
      required: true,
      min: 1,
      max: MAX_PASS_UNITS,
    },
    {
      name: 'StartAt',
      label: 'garage.field.StartAt',
      kind: 'datetime',
      required: true,
      extra: 'garageUi.pass.endHint',
    },
    { name: 'Remark', label: 'garage.field.Remark', kind: 'textarea', maxLength: 200 },
  ],
};

type SellBody = InputOf<typeof MonthlyPassApi.sell>['body'];

/**
 * Selling a monthly pass: vehicle, monthly rule, how many time units and from when (preset on a vehicle when
 * sold from its row). The server computes the end (on the area's calendar) and the price; the toast shows
 * both.
 */
export function PassSaleDialog() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const selling = useGarageDialogs((s) => s.sellPass);
  const open = selling !== null;
  const vehicleId = selling?.vehicleId;
  // New defaults on every opening: the start is "now" when the dialog opens, not when the page loaded.
  const defaults = useMemo(
    () => (open ? { VehicleId: vehicleId, Units: 1, StartAt: siteNow() } : undefined),
    [open, vehicleId],
  );
  return (
    <FormDialog
      open={open}
      item={null}
      defaults={defaults}
      title={t('garageUi.vehicle.sellPass')}
      form={form}
      onClose={() => closeDialog('sellPass')}
      onSubmit={async (body) => {
        // The form's fields are the body's (VehicleId, ChargeRuleId, Units, StartAt, Remark).
        const pass = await call(MonthlyPassApi.sell, { body: body as SellBody }, { quiet: true });
        feedback.success(
          t('garageUi.pass.sold', {
            plate: pass.Plate,
            end: formatSiteTime(pass.EndAt, 'YYYY-MM-DD HH:mm'),
            amount: formatCents(pass.AmountCents),
          }),
        );
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ['list', 'MonthlyPass'] }),
          queryClient.invalidateQueries({ queryKey: ['list', 'Vehicle'] }),
        ]);
      }}
    />
  );
}
