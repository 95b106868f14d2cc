import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Form, Input, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { AccessCheckApi, parseLocalMinute } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { useHubEvents } from '../../../core/hub.ts';
import { useSiteZone } from '../../../core/site-time.ts';
import { useAppStore } from '../../../stores/app.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { useDeviceChannels } from '../options.ts';
import { CheckResult } from './CheckResult.tsx';
import type { CheckTarget } from './links.ts';
import { WhoCanPass } from './WhoCanPass.tsx';
import './access-check.css';

/**
 * The access check (issue 31; docs/access-control.md "Access check"): "my card does not open the east gate"
 * answered on one screen. A card, a door and a minute of the area's clock (now when left empty), from the query
 * string (a holder, a card, a door or a refused swipe link here with theirs) or typed; the answer shows Gatehouse's
 * side and the controller's, read live, next to each other, "sync now" where they disagree (checked again when the
 * controller's sync pass ends), and who can pass the door at that time.
 */

const MINUTE_FORMAT = 'YYYY-MM-DD HH:mm';

interface Target {
  CardNumber: string;
  ChannelId: number | null;
  At: string;
}

function targetOf(params: URLSearchParams): Target {
  const at = params.get('At') ?? '';
  return {
    CardNumber: (params.get('CardNumber') ?? '').trim(),
    ChannelId: Number(params.get('ChannelId')) || null,
    // A minute the server would refuse is left out (now), not sent to be refused.
    At: parseLocalMinute(at) ? at.replace('T', ' ') : '',
  };
}

function paramsOf(target: CheckTarget): Record<string, string> {
  return Object.fromEntries(
    Object.entries(target).flatMap(([key, value]) =>
      value === null || value === undefined || value === '' ? [] : [[key, String(value)]],
    ),
  );
}

/** The door picker: the area's doors grouped by controller (channels of door 0 name no door of it). */
function useDoorOptions() {
  const channels = useDeviceChannels();
  return (channels.data ?? []).map((d) => ({
    label: d.DeviceName,
    title: d.DeviceName,
    options: d.Channels.filter((c) => c.DoorNumber > 0).map((c) => ({
      value: c.Id,
      label: `${d.DeviceName} · ${c.Name}`,
    })),
  }));
}

function CheckForm(props: { target: Target; onCheck(target: Target): void; checking: boolean }) {
  const { t } = useTranslation();
  const zone = useSiteZone();
  const doors = useDoorOptions();
  const [card, setCard] = useState(props.target.CardNumber);
  const [door, setDoor] = useState<number | null>(props.target.ChannelId);
  // The picker holds the area's wall clock as it reads (the text is what the server takes).
  const [at, setAt] = useState<Dayjs | null>(
    props.target.At ? dayjs(props.target.At.replace(' ', 'T')) : null,
  );
  const cardOk = /^\d{1,10}$/.test(card.trim());
  return (
    <Form
      layout="inline"
      className="access-check-form"
      onFinish={() =>
        props.onCheck({ CardNumber: card.trim(), ChannelId: door, At: at ? at.format(MINUTE_FORMAT) : '' })
      }
    >
      <Form.Item label={t('accessCheckUi.form.card')} htmlFor="access-check-card">
        <Input
          id="access-check-card"
          value={card}
          onChange={(e) => setCard(e.target.value)}
          placeholder={t('accessCheckUi.form.cardPlaceholder')}
          maxLength={10}
          inputMode="numeric"
          className="ac-card-number access-check-card"
          data-testid="access-check-card"
        />
      </Form.Item>
      <Form.Item label={t('accessCheckUi.form.door')} htmlFor="access-check-door">
        <Select
          id="access-check-door"
          value={door ?? undefined}
          onChange={(value: number) => setDoor(value)}
          options={doors}
          placeholder={t('accessCheckUi.form.doorPlaceholder')}
          showSearch={{ optionFilterProp: 'label' }}
          className="access-check-door"
          data-testid="access-check-door"
        />
      </Form.Item>
      <Form.Item
        label={t('accessCheckUi.form.at')}
        extra={t('accessCheckUi.form.zone', { zone })}
        htmlFor="access-check-at"
      >
        <DatePicker
          id="access-check-at"
          showTime={{ format: 'HH:mm' }}
          format={MINUTE_FORMAT}
          value={at}
          onChange={(value) => setAt(value)}
          placeholder={t('accessCheckUi.form.atPlaceholder')}
          data-testid="access-check-at"
        />
      </Form.Item>
      <Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          disabled={!cardOk || door === null}
          loading={props.checking}
          data-testid="access-check-submit"
        >
          {t('accessCheckUi.form.check')}
        </Button>
      </Form.Item>
    </Form>
  );
}

export default function AccessCheckPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const target = targetOf(params);
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  // The answer's words are the server's, in the language asked: another language asks again.
  const language = useAppStore((s) => s.language);
  const ready = target.CardNumber !== '' && target.ChannelId !== null;
  const check = useQuery({
    queryKey: ['access-check', areaId, language, target.CardNumber, target.ChannelId, target.At],
    queryFn: () =>
      call(AccessCheckApi.check, {
        query: {
          CardNumber: target.CardNumber,
          ChannelId: target.ChannelId!,
          ...(target.At ? { At: target.At } : {}),
        },
      }),
    enabled: ready,
    retry: false,
    staleTime: 0,
  });
  const result = check.data;
  const [waitingFor, setWaitingFor] = useState<number | null>(null);
  // "Sync now" ran: the check is asked again when the controller's sync pass has ended.
  useHubEvents(['SyncProgress'], (event) => {
    if (event.DeviceId !== waitingFor || event.Phase !== 'done') return;
    setWaitingFor(null);
    void check.refetch();
  });
  const held =
    result?.Server.Steps.some(
      (s) => ['lockdown', 'schedule', 'doorMode'].includes(s.Step) && s.Verdict === 'refuse',
    ) ?? false;
  return (
    <Space orientation="vertical" size={16} className="access-check" data-testid="access-check">
      <Card
        title={t('route.accessCheck')}
        extra={
          ready && (
            <Button
              onClick={() => void check.refetch()}
              loading={check.isFetching}
              data-testid="access-check-again"
            >
              {t('accessCheckUi.form.again')}
            </Button>
          )
        }
      >
        <CheckForm
          key={params.toString()}
          target={target}
          checking={check.isFetching}
          onCheck={(next) => {
            const same = JSON.stringify(next) === JSON.stringify(target);
            if (same) void check.refetch();
            else setParams(paramsOf(next));
          }}
        />
      </Card>
      {!ready && <Empty description={t('accessCheckUi.form.empty')} />}
      {check.isError && <Typography.Text type="danger">{t('accessCheckUi.side.failed')}</Typography.Text>}
      {result && <CheckResult result={result} onSynced={() => setWaitingFor(result.DeviceId)} />}
      {target.ChannelId !== null && <WhoCanPass channelId={target.ChannelId} at={target.At} held={held} />}
    </Space>
  );
}
