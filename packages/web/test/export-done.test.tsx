import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const downloadExport = vi.fn(() => Promise.resolve());
vi.mock('../src/components/list-page/export-job.ts', () => ({ downloadExport }));

const { ExportDoneMessage } = await import('../src/components/list-page/ExportDone.tsx');

describe('export-finished message', () => {
  afterEach(cleanup);

  it('links to the file: a click downloads it again, the address leads to the export log', () => {
    render(<ExportDoneMessage job={{ Id: 7, Title: '持卡人管理' }} text="导出完成，共 3 行" />);
    const link = screen.getByTestId('export-done-link');
    expect(screen.getByTestId('export-done').textContent).toBe('导出完成，共 3 行 持卡人管理.xlsx');
    expect(link.getAttribute('href')).toBe('#/export/log');
    fireEvent.click(link);
    expect(downloadExport).toHaveBeenCalledWith({ Id: 7, Title: '持卡人管理' });
  });
});
