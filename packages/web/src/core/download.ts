import { getToken } from '../stores/session.ts';
import { useAreaStore } from '../stores/area.ts';
import { useAppStore } from '../stores/app.ts';
import { RequestError } from './request.ts';

/** The file name of a Content-Disposition header (RFC 5987 form first). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]+)"/i.exec(header);
  return plain?.[1] ? decodeURIComponent(plain[1]) : fallback;
}

/**
 * A file reply of an authenticated endpoint (an .xlsx, an image) fetched with the same headers as every API
 * call. A refusal comes back as the JSON envelope and is thrown as a RequestError.
 */
export async function fetchFile(url: string): Promise<Response> {
  const headers: Record<string, string> = { 'Accept-Language': useAppStore.getState().language };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const areaId = useAreaStore.getState().current?.Id;
  if (areaId !== undefined) headers['X-Area-Id'] = String(areaId);
  const response = await fetch(url, { headers });
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await response.json().catch(() => null)) as { code?: number; msg?: string } | null;
    throw new RequestError(body?.msg || 'Error', body?.code ?? response.status);
  }
  return response;
}

/**
 * Downloads a file from an authenticated endpoint (the same headers as every API call) and hands it
 * to the browser. A refusal comes back as the JSON envelope and is thrown as a RequestError.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const response = await fetchFile(url);
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = dispositionFileName(response.headers.get('content-disposition'), fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
