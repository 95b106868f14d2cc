import { Empty, Spin, Tag, Tree } from 'antd';
import { useMemo } from 'react';
import type { DataNode } from 'antd/es/tree';
import { useTranslation } from 'react-i18next';
import { PROTOCOL_WG } from '@gatehouse/shared';
import { useDeviceChannels, type DeviceChannels } from '../options.ts';

interface Props {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Channels the chosen holder is already authorised on: marked, so a grant is not given blind. */
  granted?: ReadonlySet<number>;
}

const deviceKey = (id: number) => `d${id}`;
const channelKey = (id: number) => `c${id}`;

export function channelTree(
  devices: readonly DeviceChannels[],
  noSyncLabel: string,
  granted: ReadonlySet<number> = new Set(),
  grantedLabel = '',
): DataNode[] {
  return devices.map((d) => ({
    key: deviceKey(d.DeviceId),
    title: (
      <span>
        {d.DeviceName}
        {d.Protocol !== PROTOCOL_WG && (
          <Tag color="cyan" style={{ marginInlineStart: 6 }}>
            {noSyncLabel}
          </Tag>
        )}
      </span>
    ),
    children: d.Channels.map((c) => ({
      key: channelKey(c.Id),
      title: granted.has(c.Id) ? (
        <span>
          {c.Name}
          <Tag color="green" style={{ marginInlineStart: 6 }} data-testid="channel-granted">
            {grantedLabel}
          </Tag>
        </span>
      ) : (
        c.Name
      ),
      isLeaf: true,
    })),
  }));
}

/** Checked tree keys → channel ids (a device's key stands for all its channels, which are checked too). */
export function channelIds(keys: readonly React.Key[]): number[] {
  return keys
    .map(String)
    .filter((k) => k.startsWith('c'))
    .map((k) => Number(k.slice(1)));
}

/**
 * The area's channels grouped by device, ticked one by one or a whole device at once. Devices of a protocol
 * that needs no sync are marked: their grants take effect at once (no issue needed).
 */
export function ChannelPicker({ value, onChange, granted }: Props) {
  const { t } = useTranslation();
  const devices = useDeviceChannels();
  const noSync = String(t('enum.issueStatus.0' as never));
  // The tree is rebuilt only when its channels or language change: the page around it re-renders on every live
  // event (sync progress of the area's controllers), and a new tree each time was re-laid out under the user's
  // pointer (CI: its checkbox "not stable" and "detached" until the click gave up).
  const grantedLabel = t('acUi.grant.granted');
  const treeData = useMemo(
    () => channelTree(devices.data ?? [], noSync, granted, grantedLabel),
    [devices.data, noSync, granted, grantedLabel],
  );
  if (devices.isLoading) return <Spin />;
  if (!devices.data?.length) return <Empty description={t('acUi.grant.noChannels')} />;
  return (
    <div className="ac-channel-tree">
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        checkedKeys={(value ?? []).map(channelKey)}
        onCheck={(keys) => onChange?.(channelIds(Array.isArray(keys) ? keys : keys.checked))}
        treeData={treeData}
        data-testid="channel-picker"
      />
    </div>
  );
}
