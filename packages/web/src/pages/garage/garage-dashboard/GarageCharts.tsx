import { useMemo } from 'react';
import { Card, Col, Empty, Row, Skeleton } from 'antd';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GarageDashboardApi,
  chargePortState,
  findEnumItem,
  formatCents,
  formatKWh,
  type GarageDaily,
  type GarageSummary,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { DAILY_KEY } from '../live.ts';
import { echarts } from './echarts.ts';

/** Days the charts cover. */
const CHART_DAYS = 30;

const CHART_HEIGHT = 280;
/** Series colours of the daily charts (the socket chart uses the port-state colours). */
const COLOURS = { sessions: '#1565C0', energy: '#2E7D32', charging: '#3949AB', parking: '#946200' };

/** Sockets by state, one bar per state present, in the states' own colours (long labels stay readable). */
function SocketsChart({ summary }: { summary: GarageSummary }) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const present = summary.Sockets.ByState.filter((s) => s.Count > 0);
    const name = (state: number) => {
      const item = findEnumItem(chargePortState, state);
      return item ? t(item.key as never) : String(state);
    };
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      grid: { left: 8, right: 36, top: 8, bottom: 8, containLabel: true },
      // Few ticks: the chart is a third of the panel, and its labels must not run into each other.
      xAxis: { type: 'value', minInterval: 1, splitNumber: 2 },
      yAxis: {
        type: 'category',
        inverse: true,
        data: present.map((s) => name(s.State)),
        // A long state name ends in an ellipsis here; the axis tooltip names it whole on hover.
        axisLabel: { width: 96, overflow: 'truncate' },
      },
      series: [
        {
          type: 'bar',
          barMaxWidth: 14,
          label: { show: true, position: 'right' },
          data: present.map((s) => ({ value: s.Count, itemStyle: { color: s.Color ?? '#424242' } })),
        },
      ],
    };
  }, [summary, t]);
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: CHART_HEIGHT }} notMerge />;
}

/** Sessions (bars) and energy (line) per day. */
function SessionsChart({ daily }: { daily: GarageDaily }) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const sessions = t('garageUi.dashboard.sessions');
    const energy = t('garageUi.dashboard.energy');
    return {
      tooltip: { trigger: 'axis' },
      legend: { data: [sessions, energy], top: 0, type: 'scroll' },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: daily.Days.map((d) => d.Date.slice(5)) },
      // The legend names both series with their units; axis names would collide with it.
      yAxis: [{ type: 'value' }, { type: 'value', splitLine: { show: false } }],
      series: [
        {
          name: sessions,
          type: 'bar',
          data: daily.Days.map((d) => d.Sessions),
          itemStyle: { color: COLOURS.sessions },
        },
        {
          name: energy,
          type: 'line',
          yAxisIndex: 1,
          smooth: true,
          data: daily.Days.map((d) => Number(formatKWh(d.EnergyWh))),
          itemStyle: { color: COLOURS.energy },
        },
      ],
    };
  }, [daily, t]);
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: CHART_HEIGHT }} notMerge />;
}

/** Collected revenue per day, charging and parking stacked, in yuan. */
function RevenueChart({ daily }: { daily: GarageDaily }) {
  const { t } = useTranslation();
  const option = useMemo(() => {
    const charging = t('garageUi.dashboard.chargingRevenue');
    const parking = t('garageUi.dashboard.parkingRevenue');
    return {
      tooltip: { trigger: 'axis' },
      legend: { data: [charging, parking], top: 0, type: 'scroll' },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: daily.Days.map((d) => d.Date.slice(5)) },
      yAxis: { type: 'value' },
      series: [
        {
          name: charging,
          type: 'bar',
          stack: 'revenue',
          data: daily.Days.map((d) => Number(formatCents(d.ChargingRevenueCents))),
          itemStyle: { color: COLOURS.charging },
        },
        {
          name: parking,
          type: 'bar',
          stack: 'revenue',
          data: daily.Days.map((d) => Number(formatCents(d.ParkingRevenueCents))),
          itemStyle: { color: COLOURS.parking },
        },
      ],
    };
  }, [daily, t]);
  return <ReactEChartsCore echarts={echarts} option={option} style={{ height: CHART_HEIGHT }} notMerge />;
}

/** The garage's charts: sockets by state now, and the last 30 days of sessions, energy and revenue. */
export default function GarageCharts({ summary }: { summary: GarageSummary }) {
  const { t } = useTranslation();
  const daily = useQuery({
    queryKey: [...DAILY_KEY, CHART_DAYS],
    queryFn: () => call(GarageDashboardApi.daily, { query: { Days: CHART_DAYS } }),
  });
  const days = daily.data;
  return (
    <Row gutter={[16, 16]} data-testid="garage-charts">
      <Col xs={24} xl={8}>
        <Card size="small" title={t('garageUi.dashboard.socketsByState')}>
          {summary.Sockets.Total ? <SocketsChart summary={summary} /> : <Empty />}
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card size="small" title={t('garageUi.dashboard.sessionsDaily', { days: CHART_DAYS })}>
          {days ? <SessionsChart daily={days} /> : <Skeleton active paragraph={{ rows: 6 }} />}
        </Card>
      </Col>
      <Col xs={24} xl={8}>
        <Card size="small" title={t('garageUi.dashboard.revenueDaily', { days: CHART_DAYS })}>
          {days ? <RevenueChart daily={days} /> : <Skeleton active paragraph={{ rows: 6 }} />}
        </Card>
      </Col>
    </Row>
  );
}
