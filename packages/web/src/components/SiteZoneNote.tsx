import { Typography } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { zoneOffsetLabel } from '@gatehouse/shared';
import { differsFromBrowser, useSiteZone } from '../core/site-time.ts';

/**
 * Names the site's zone where its clock differs from the browser's, so an operator abroad knows the
 * times on screen (and those typed) are the site's; nothing when both read the same.
 */
export function SiteZoneNote() {
  const { t } = useTranslation();
  const zone = useSiteZone();
  if (!differsFromBrowser(zone)) return null;
  return (
    <Typography.Text type="secondary" className="site-zone-note" data-testid="site-zone">
      <ClockCircleOutlined /> {t('list.siteZone', { zone, offset: zoneOffsetLabel(zone) })}
    </Typography.Text>
  );
}
