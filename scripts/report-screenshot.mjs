/**
 * The README's report screenshot (docs/report-screenshot.png): the top of a report in Debian's headless chromium.
 *   node scripts/report-screenshot.mjs REPORT.html docs/report-screenshot.png [height]
 */
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [html, png, height = '1400'] = process.argv.slice(2);
if (!html || !png) {
  console.error('usage: node scripts/report-screenshot.mjs REPORT.html OUT.png [height]');
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), 'pyxis-chromium-'));
const flags = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ctx = await chromium.launchPersistentContext(profile, { executablePath: process.env.PYXIS_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: flags, viewport: { width: 1000, height: Number(height) } });
try {
  const page = await ctx.newPage();
  await page.goto(pathToFileURL(resolve(html)).href);
  await page.screenshot({ path: png });
} finally {
  await ctx.close();
  rmSync(profile, { recursive: true, force: true });
}
