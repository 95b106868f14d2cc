import zlib from 'node:zlib';

/** Limits on what an uploaded workbook may inflate to, checked before any parser sees it. */
export interface ZipLimits {
  /** All entries together, inflated. */
  maxTotalBytes: number;
  /** Any one entry (a worksheet's XML), inflated. */
  maxEntryBytes: number;
  maxEntries: number;
}

export const WORKBOOK_LIMITS: ZipLimits = {
  // A full 5,000-row holder template inflates to about 2 MB; eight times that is room for formatting.
  maxTotalBytes: 16 * 1024 * 1024,
  maxEntryBytes: 12 * 1024 * 1024,
  maxEntries: 500,
};

export type ZipVerdict = { ok: true; totalBytes: number } | { ok: false; reason: 'unreadable' | 'tooLarge' };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * Inflates every entry of a zip (an .xlsx is one) with a hard cap on its output, without keeping the
 * result: the sizes a zip declares can lie, the inflated bytes cannot. A 287 KB file that inflates to
 * 98 MB is refused after reading at most `maxEntryBytes` of it. Synchronous and bounded: at most
 * maxTotalBytes of inflation work.
 */
export function checkZip(buffer: Buffer, limits: ZipLimits = WORKBOOK_LIMITS): ZipVerdict {
  try {
    // End of central directory: within the last 64 KB + 22 bytes (a comment may follow it).
    let eocd = -1;
    for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 65_557); i--)
      if (buffer.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    if (eocd < 0) return { ok: false, reason: 'unreadable' };
    const entries = buffer.readUInt16LE(eocd + 10);
    if (entries > limits.maxEntries) return { ok: false, reason: 'tooLarge' };
    let at = buffer.readUInt32LE(eocd + 16);
    let total = 0;
    for (let n = 0; n < entries; n++) {
      if (buffer.readUInt32LE(at) !== CENTRAL) return { ok: false, reason: 'unreadable' };
      const method = buffer.readUInt16LE(at + 10);
      const compressed = buffer.readUInt32LE(at + 20);
      const declared = buffer.readUInt32LE(at + 24);
      const nameLength = buffer.readUInt16LE(at + 28);
      const extraLength = buffer.readUInt16LE(at + 30);
      const commentLength = buffer.readUInt16LE(at + 32);
      const localAt = buffer.readUInt32LE(at + 42);
      at += 46 + nameLength + extraLength + commentLength;

      if (declared > limits.maxEntryBytes) return { ok: false, reason: 'tooLarge' };
      if (buffer.readUInt32LE(localAt) !== LOCAL) return { ok: false, reason: 'unreadable' };
      const dataAt = localAt + 30 + buffer.readUInt16LE(localAt + 26) + buffer.readUInt16LE(localAt + 28);
      const data = buffer.subarray(dataAt, dataAt + compressed);
      let inflated: number;
      if (method === 0) inflated = data.length;
      else if (method === 8) {
        try {
          inflated = zlib.inflateRawSync(data, { maxOutputLength: limits.maxEntryBytes + 1 }).length;
        } catch (error) {
          if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
            return { ok: false, reason: 'tooLarge' };
          return { ok: false, reason: 'unreadable' };
        }
      } else return { ok: false, reason: 'unreadable' };
      if (inflated > limits.maxEntryBytes) return { ok: false, reason: 'tooLarge' };
      total += inflated;
      if (total > limits.maxTotalBytes) return { ok: false, reason: 'tooLarge' };
    }
    return { ok: true, totalBytes: total };
  } catch {
    // Offsets out of range: a truncated or forged file.
    return { ok: false, reason: 'unreadable' };
  }
}
