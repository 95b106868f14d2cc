import './support/antd-jsdom.ts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { VisitorPassItem } from '@gatehouse/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The words are the catalogue keys and their values: the test reads what would be said, in any language.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, values?: Record<string, unknown>) =>
      values && !('defaultValue' in values) ? `${key} ${JSON.stringify(values)}` : key,
  }),
}));
vi.mock('../src/components/list-page/permissions.ts', () => ({ useCan: () => true, canUse: () => true }));
// The QR code comes with the pass here: nothing is fetched.
vi.mock('@tanstack/react-query', () => ({ useQuery: () => ({ data: undefined }) }));

const { PassDialog } = await import('../src/pages/access-control/visitor-pass/PassDialog.tsx');
const { printPass } = await import('../src/pages/access-control/visitor-pass/print.ts');

const QR = 'data:image/png;base64,iVBORw0KGgo=';

const pass: VisitorPassItem & { QrDataUrl: string } = {
  Id: 7,
  VisitorName: 'Ada <Visitor>',
  Phone: null,
  Company: 'Engines & Co',
  HostCardUserId: 3,
  HostName: '王芳',
  ChannelIds: [11, 12],
  Doors: [
    { ChannelId: 11, ChannelName: '1号门进门', DeviceId: 2, DeviceName: '东门控制器', IssueStatus: 3 },
    { ChannelId: 12, ChannelName: '2号门进门', DeviceId: 2, DeviceName: '东门控制器', IssueStatus: 1 },
  ],
  CardNumber: '3141592653',
  CardValue: 1,
  ValidFrom: '2026-11-04T01:00:00.000Z',
  ValidTo: '2026-11-04T09:00:00.000Z',
  TimeZone: 'Asia/Shanghai',
  State: 1,
  Upcoming: true,
  HoursOnController: true,
  EndedAt: null,
  EndedBy: null,
  CreatedBy: 'admin',
  CreatedAt: '2026-11-01T08:00:00.000Z',
  QrUrl: '/api/VisitorPass/Qr?Id=7',
  QrDataUrl: QR,
};

afterEach(cleanup);
// A render loads antd's modal, descriptions and tags: seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

describe('a visitor pass on screen and on paper', () => {
  it('shows its QR code, card number, window, host, doors with where each stands, and offers print and revoke', () => {
    render(<PassDialog pass={pass} onClose={() => {}} onRevoke={() => Promise.resolve()} />);
    expect(screen.getByTestId('visitor-qr').getAttribute('src')).toBe(QR);
    expect(screen.getByTestId('visitor-card').textContent).toContain('3141592653');
    const text = screen.getByTestId('visitor-pass').textContent ?? '';
    expect(text).toContain('王芳');
    expect(text).toContain('acUi.visitor.upcoming');
    expect(text).toContain('acUi.visitor.byProfile');
    expect(text).toContain('acUi.visitor.onController {"done":1,"total":2}');
    expect(text).toContain('东门控制器 · 2号门进门');
    expect(screen.getByTestId('visitor-revoke')).toBeTruthy();
    expect((screen.getByTestId('visitor-print') as HTMLButtonElement).disabled).toBe(false);
  });

  it('has no revoke once ended', () => {
    render(
      <PassDialog
        pass={{ ...pass, State: 3, Upcoming: false, EndedAt: '2026-11-04T02:00:00.000Z', EndedBy: 'admin' }}
        onClose={() => {}}
        onRevoke={() => Promise.resolve()}
      />,
    );
    expect(screen.queryByTestId('visitor-revoke')).toBeNull();
  });

  it('prints on a page of its own: the QR code and the facts, the visitor’s words escaped', () => {
    let written = '';
    const popup = { document: { write: (html: string) => (written += html), close: () => {} } };
    const open = vi.spyOn(globalThis, 'open').mockReturnValue(popup as never);
    render(<PassDialog pass={pass} onClose={() => {}} onRevoke={() => Promise.resolve()} />);
    fireEvent.click(screen.getByTestId('visitor-print'));
    expect(open).toHaveBeenCalledOnce();
    expect(written).toContain(`<img src="${QR}"`);
    expect(written).toContain('3141592653');
    expect(written).toContain('Ada &#60;Visitor&#62;');
    expect(written).not.toContain('<Visitor>');
    expect(written).toContain('Engines &#38; Co');
    expect(written).toContain('2026-11-04 09:00 ~ 2026-11-04 17:00');
    expect(written).toContain('window.print()');
    open.mockRestore();
  });

  it('does nothing when the browser blocks the print window', () => {
    const open = vi.spyOn(globalThis, 'open').mockReturnValue(null);
    expect(() =>
      printPass(
        pass,
        QR,
        { from: 'a', to: 'b' },
        {
          title: '',
          hint: '',
          card: '',
          host: '',
          validity: '',
          doors: '',
          zone: '',
        },
      ),
    ).not.toThrow();
    open.mockRestore();
  });
});
