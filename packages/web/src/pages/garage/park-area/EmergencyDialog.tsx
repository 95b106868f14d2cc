import { Alert, Form, Input } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { EMERGENCY_TEXT_MAX, ParkAreaEmergencyApi, antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import {
  actorText,
  closeEmergencyDialog,
  notReachedText,
  reloadAfterEmergency,
  useEmergencyDialog,
  type EmergencyTarget,
} from './emergency.ts';

/** Tells what the chargers did: a success when every one was reached, else a warning naming the others. */
function report(t: TFunction, text: string, missed: string): void {
  if (missed) feedback.warning(`${text} ${t('garageUi.emergency.missed', { hosts: missed })}`, 10);
  else feedback.success(text);
}

/** Sends the stop (with its reason) or the release (with its note), then says what came of it. */
async function send(t: TFunction, target: EmergencyTarget, text: string): Promise<void> {
  if (target.mode === 'stop') {
    const done = await call(ParkAreaEmergencyApi.stop, { body: { Id: target.zone.Id, Reason: text } });
    const o = done.Stop!;
    const words = t('garageUi.emergency.stopped', {
      zone: done.ZoneName,
      stopped: o.SessionsStopped,
      running: o.SessionsRunning,
      inoperative: o.SocketsInoperative,
      sockets: o.Sockets,
    });
    report(t, words, notReachedText(t, o.NotReached));
    return;
  }
  const done = await call(ParkAreaEmergencyApi.release, { body: { Id: target.zone.Id, Note: text } });
  const o = done.Release!;
  const words = t('garageUi.emergency.released', {
    zone: done.ZoneName,
    operative: o.SocketsOperative,
    sockets: o.Sockets,
    kept: o.SocketsKeptDisabled,
  });
  report(t, words, notReachedText(t, o.NotReached));
}

/** What the dialog warns of: the stop's effects, or the stop being released (why, who, since when). */
function Hint({ target }: { target: EmergencyTarget }) {
  const { t } = useTranslation();
  const stop = target.zone.EmergencyStop;
  if (target.mode === 'stop' || !stop)
    return (
      <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('garageUi.emergency.stopHint')} />
    );
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('garageUi.emergency.bannerLine', {
        zone: target.zone.Name,
        reason: stop.Reason,
        by: actorText(t, stop.StoppedBy, stop.StoppedByKind),
        since: formatSiteTime(stop.StoppedAt, 'YYYY-MM-DD HH:mm'),
      })}
      description={t('garageUi.emergency.releaseHint')}
    />
  );
}

/**
 * Stops a zone (a reason is required: it is what the banner, the operation log and the outward event say) or
 * releases it (a note is required: why it is safe again). The answer says what the chargers did: sessions asked
 * to stop and connectors made Inoperative, or connectors made Operative again, and the chargers not reached
 * (they are told when they connect).
 */
export function EmergencyDialog() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ Text: string }>();
  const target = useEmergencyDialog((s) => s.target);
  const stopping = target?.mode === 'stop';

  async function submit({ Text }: { Text: string }) {
    await send(t, target!, Text.trim());
    closeEmergencyDialog();
    await reloadAfterEmergency();
  }

  return (
    <FormModal
      form={form}
      open={target !== null}
      title={t(stopping ? 'garageUi.emergency.stopTitle' : 'garageUi.emergency.releaseTitle', {
        zone: target?.zone.Name ?? '',
      })}
      keyboard={false}
      destroyOnHidden
      okText={t(stopping ? 'garageUi.emergency.stop' : 'garageUi.emergency.release')}
      okButtonProps={{ danger: stopping }}
      okTestId="emergency-ok"
      onCancel={closeEmergencyDialog}
      onSubmit={submit}
    >
      {target && <Hint target={target} />}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="Text"
          label={t(stopping ? 'garage.field.Reason' : 'garageUi.emergency.note')}
          rules={[antdRule((k) => t(k), required)]}
        >
          <Input.TextArea
            rows={3}
            maxLength={EMERGENCY_TEXT_MAX}
            showCount
            placeholder={t(
              stopping ? 'garageUi.emergency.reasonPlaceholder' : 'garageUi.emergency.notePlaceholder',
            )}
            data-testid="emergency-text"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
