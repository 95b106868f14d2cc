import type { VisitorPassItem } from '@gatehouse/shared';

/** What a printed pass says besides its data: the words, already in the operator's language. */
export interface PrintWords {
  title: string;
  hint: string;
  card: string;
  host: string;
  validity: string;
  doors: string;
  zone: string;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The printable card of a pass: the QR code, the visitor, the card number, the host, the window in the area's
 * time and the doors, on one page; printed from a window of its own (the app's layout and styles left out).
 * `from` and `to` are already formatted in the area's time.
 */
export function printPass(
  pass: VisitorPassItem,
  qr: string,
  window: { from: string; to: string },
  words: PrintWords,
): void {
  const popup = globalThis.open('', '_blank', 'width=520,height=720');
  if (!popup) return;
  const doors = pass.Doors.map((d) => `${escape(d.DeviceName)} · ${escape(d.ChannelName)}`).join('<br>');
  popup.document.write(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(words.title)}</title>
<style>
  body { font-family: sans-serif; margin: 24px; color: #000; }
  .pass { border: 1px solid #000; border-radius: 8px; padding: 20px; max-width: 420px; margin: auto; text-align: center; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; font-weight: normal; margin: 0 0 12px; }
  img { width: 240px; height: 240px; image-rendering: pixelated; }
  table { width: 100%; text-align: left; border-collapse: collapse; margin-top: 12px; font-size: 14px; }
  th { white-space: nowrap; padding: 4px 8px 4px 0; vertical-align: top; } td { padding: 4px 0; }
  .hint { font-size: 13px; margin-top: 8px; }
</style></head><body><div class="pass">
<h1>${escape(pass.VisitorName)}</h1><h2>${escape(pass.Company ?? '')}</h2>
<img src="${qr}" alt="${escape(pass.CardNumber)}">
<div class="hint">${escape(words.hint)}</div>
<table>
<tr><th>${escape(words.card)}</th><td>${escape(pass.CardNumber)}</td></tr>
<tr><th>${escape(words.host)}</th><td>${escape(pass.HostName)}</td></tr>
<tr><th>${escape(words.validity)}</th><td>${escape(window.from)} ~ ${escape(window.to)}<br>${escape(words.zone)}</td></tr>
<tr><th>${escape(words.doors)}</th><td>${doors}</td></tr>
</table></div>
<script>window.onload = function () { window.focus(); window.print(); };</script>
</body></html>`);
  popup.document.close();
}
