// Renders the app logo (public/logo.jpg) from an inline SVG with Debian's Chromium:
// `node packages/web/scripts/make-logo.mjs`. Kept so the image can be changed and rebuilt.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '../public/logo.jpg');
const svg = `
<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1890ff"/>
      <stop offset="1" stop-color="#304156"/>
    </linearGradient>
  </defs>
  <rect width="256" height="256" fill="url(#bg)"/>
  <path d="M48 118 L128 54 L208 118" fill="none" stroke="#fff" stroke-width="16" stroke-linecap="round" stroke-linejoin="round"/>
  <rect x="72" y="116" width="112" height="88" rx="6" fill="none" stroke="#fff" stroke-width="14"/>
  <path d="M110 204 V160 a18 18 0 0 1 36 0 V204" fill="#fff"/>
  <circle cx="128" cy="98" r="9" fill="#bfe0ff"/>
</svg>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
  await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({
    path: out,
    type: 'jpeg',
    quality: 92,
    clip: { x: 0, y: 0, width: 256, height: 256 },
  });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
