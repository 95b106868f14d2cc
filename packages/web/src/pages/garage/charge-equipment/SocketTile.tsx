import { Button, Typography } from 'antd';
import { FireOutlined, PlayCircleOutlined, PoweroffOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { findEnumItem, chargePortState, formatCents, formatKWh } from '@gatehouse/shared';
import { canPowerOff, type GridSocket } from './types.ts';
import { formatSiteTime } from '../../../core/site-time.ts';

/** Text on a state-coloured band: every port-state colour reaches 4.5:1 against white. */
const BAND_TEXT = '#ffffff';
const UNKNOWN_STATE_COLOUR = '#424242';

/**
 * One socket of the grid: a band in its state's colour with the port and the state's label, the running
 * session (card, time, energy, live estimate) or when the state last changed, and its actions: forced
 * power-off, and starting a session for a card where the host's device link allows it. A socket whose host is
 * offline reads "unknown / offline": its session's figures are the last the charger reported. A socket whose
 * host is in heat alarm says so in red (its sessions are being stopped, none starts).
 */
export function SocketTile({
  socket,
  heatAlarm = false,
  onPowerOff,
  onRemoteStart,
}: {
  socket: GridSocket;
  /** Its host is in heat alarm: the tile says so, whatever its state. */
  heatAlarm?: boolean;
  onPowerOff(): void;
  /** Offered only where a session can be started now (canRemoteStart). */
  onRemoteStart?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const item = findEnumItem(chargePortState, socket.State);
  const colour = socket.StateColor ?? item?.color ?? UNKNOWN_STATE_COLOUR;
  const session = socket.Session;
  const offline = socket.StateGroup === 'offline';
  return (
    <div
      className={heatAlarm ? 'socket-tile socket-tile-heat' : 'socket-tile'}
      style={{ borderColor: colour }}
      data-port={socket.PortNumber}
      data-state={socket.State}
      data-card={session?.CardNumber ?? undefined}
      data-testid="socket-tile"
    >
      <div className="socket-tile-band" style={{ background: colour, color: BAND_TEXT }}>
        <span className="socket-tile-port">{t('garageUi.socket.port', { port: socket.PortNumber })}</span>
        <span className="socket-tile-state" data-testid="socket-state">
          {item ? t(item.key as never) : String(socket.State)}
        </span>
      </div>
      <div className="socket-tile-body">
        {heatAlarm && (
          <div className="socket-tile-heat-label" data-testid="socket-heat-alarm">
            <FireOutlined /> {t('garageUi.heat.tile')}
          </div>
        )}
        {session ? (
          <>
            <div>
              {t('garage.field.CardNumber')}: {session.CardNumber ?? '-'}
            </div>
            <div>
              {t('garageUi.socket.minutesEnergy', {
                minutes: session.DurationMinutes,
                kwh: formatKWh(session.EnergyWh),
              })}
            </div>
            {session.EstimatedCents !== null && (
              <div data-testid="socket-estimate">
                {t('garageUi.estimated')}: ¥{formatCents(session.EstimatedCents)}
              </div>
            )}
            {offline && (
              <Typography.Text type="secondary">{t('garageUi.socket.lastReported')}</Typography.Text>
            )}
          </>
        ) : offline ? (
          <Typography.Text type="secondary">{t('garageUi.socket.hostOffline')}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">
            {t('garageUi.socket.since', { time: formatSiteTime(socket.StateChangedAt, 'MM-DD HH:mm') })}
          </Typography.Text>
        )}
      </div>
      {onRemoteStart && (
        <div className="socket-tile-actions">
          <Button
            size="small"
            block
            icon={<PlayCircleOutlined />}
            onClick={onRemoteStart}
            data-testid="socket-remote-start"
          >
            {t('garageUi.remoteStart.action')}
          </Button>
        </div>
      )}
      {canPowerOff(socket) && (
        <div className="socket-tile-actions">
          <Button
            size="small"
            danger
            block
            icon={<PoweroffOutlined />}
            onClick={onPowerOff}
            data-testid="socket-power-off"
          >
            {t('garage.action.ForcedPowerOff')}
          </Button>
        </div>
      )}
    </div>
  );
}
