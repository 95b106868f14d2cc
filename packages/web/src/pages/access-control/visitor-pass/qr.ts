import { useQuery } from '@tanstack/react-query';
import { VisitorPassApi } from '@gatehouse/shared';
import { fileBlob } from '../../../core/api.ts';
import { useAreaStore } from '../../../stores/area.ts';

/** A Blob as a data URL, which an <img> shows and a print window carries without the session's headers. */
function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read'));
    reader.readAsDataURL(blob);
  });
}

/**
 * A pass's QR code as a data URL: the one issuing answered with, else the PNG the server makes (GET Qr, with the
 * session's headers: an <img src> could not send them), loaded once per pass.
 */
export function useQrCode(pass: { Id: number; QrDataUrl?: string } | null): string | undefined {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const query = useQuery({
    queryKey: ['visitor-pass-qr', areaId, pass?.Id],
    queryFn: async () => dataUrl(await fileBlob(VisitorPassApi.qr, { query: { Id: pass!.Id } })),
    enabled: pass !== null && !pass.QrDataUrl,
    staleTime: Infinity,
  });
  return pass?.QrDataUrl ?? query.data;
}
