import { Empty, Spin, Tag, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useTranslation } from 'react-i18next';
import { PROTOCOL_WG } from '@gatehouse/shared';
import { useDeviceChannels, type DeviceChannels } from '../options.ts';

interface Props {
  value?: number[];
  onChange?: (ids: number[]) => void;
}

const deviceKey = (id: number) => `d${id}`;
const channelKey = (id: number) => `c${id}`;

export function channelTree(devices: readonly DeviceChannels[], noSyncLabel: string): DataNode[] {
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
    children: d.Channels.map((c) => ({ key: channelKey(c.Id), title: c.Name, isLeaf: true })),
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
export function ChannelPicker({ value, onChange }: Props) {
  const { t } = useTranslation();
  const devices = useDeviceChannels();
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
        treeData={channelTree(devices.data, String(t('enum.issueStatus.0' as never)))}
        data-testid="channel-picker"
      />
    </div>
  );
}
