import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
vi.mock('../src/components/list-page/index.ts', () => ({
  ListPage: () => <div data-testid="list-ExportJob" />,
  downloadExport: vi.fn(),
}));

const { useAreaStore } = await import('../src/stores/area.ts');
const { default: ExportLogPage } = await import('../src/pages/system/export-job/ExportLogPage.tsx');

describe('export page without areas', () => {
  afterEach(cleanup);

  it('says why there is nothing and what to do, instead of a list that can only fail', () => {
    useAreaStore.setState({ areas: [], current: null });
    render(<ExportLogPage />);
    expect(screen.getByTestId('export-no-area').textContent).toContain('adminUi.exportNoArea');
    expect(screen.queryByTestId('list-ExportJob')).toBeNull();
  });

  it('shows the export log to a user with an area', () => {
    useAreaStore.setState({ areas: [{ Id: 1, Name: 'A', Custom: null }], current: null } as never);
    render(<ExportLogPage />);
    expect(screen.getByTestId('list-ExportJob')).toBeTruthy();
  });
});
