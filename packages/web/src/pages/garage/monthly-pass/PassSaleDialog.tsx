import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAX_PASS_UNITS, formatCents } from '@gatehouse/shared';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import { FormDialog, type FormDef, type Row } from '../../../components/list-page/index.ts';
import { monthlyRuleOptions } from '../options.ts';
import { VehicleSelect } from '../vehicle/VehicleSelect.tsx';
import { formatSiteTime, siteNow } from '../../../core/site-time.ts';

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

/**
 * Selling a monthly pass: vehicle, monthly rule, how many time units and from when. The server computes
 * the end (on the area's calendar) and the price; the toast shows both.
 */
export function PassSaleDialog({
  open,
  vehicleId,
  onClose,
}: {
  open: boolean;
  /** Preset when sold from a vehicle's row. */
  vehicleId?: number | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
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
      onClose={onClose}
      onSubmit={async (body) => {
        const pass = await http.post<{ EndAt: string; AmountCents: number; Plate: string }>(
          '/api/MonthlyPass',
          body,
          { quiet: true },
        );
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
