/**
 * The HTML run report in a real browser (docs/report.md): Debian's chromium, driven by playwright-core (which never
 * downloads a browser of its own). For a report of every target: the page loads with no console error, no page
 * error and no network request beyond its own file; every chart has drawn marks (SVG rect/path/circle, table rows)
 * with a visible size; a screenshot is taken and is not blank (decoded by the browser: many distinct colours).
 * With CI=true a missing chromium fails the test (.ci/run installs it); elsewhere the browser part is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeNpyFile } from '@pyxis/container';
import { runAs, runLd, runSim } from '@pyxis/targets';
import { chromium, type BrowserContext } from 'playwright-core';
import { call } from './cli-call.js';
import { linkPair } from './system-pair.js';
import { sampleInputs } from '../../../samples/neuroncore/inputs.mjs';

const CHROMIUM = process.env['PYXIS_CHROMIUM'] ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pyxis-report-'));
const have = existsSync(CHROMIUM);

/** The reports: one per target, written by `run --report` or by `report STATS TRACE`. */
const reports: Record<string, string> = {};

beforeAll(async () => {
  // Pyxis: a compute trip (grid + VPU) between DMA trips, assembled and linked from the sample
  const s = join(root, 'samples/pyxis');
  expect((await call(runAs, [join(s, 'matmul_bias_relu.pasm'), '-o', join(dir, 'mbr.pobj')])).code).toBe(0);
  expect((await call(runLd, [join(s, 'matmul_bias_relu.ld'), join(dir, 'mbr.pobj'), '-o', join(dir, 'mbr.pimg')])).code).toBe(0);
  let r = await call(runSim, ['run', join(dir, 'mbr.pimg'), '--report', (reports['pyxis'] = join(dir, 'pyxis.html'))]);
  expect(r.code, r.err).toBe(0);
  // a Pyxis system: chip 0 sends a tensor to chip 1 by RDMA (per-chip and per-link sections)
  r = await call(runSim, ['run', await linkPair(dir), '--report', (reports['system'] = join(dir, 'system.html'))]);
  expect(r.code, r.err).toBe(0);
  // systolic: the Tensil model as it is
  r = await call(runSim, ['run', join(root, 'samples/systolic/fc.tmodel'), '--input', `x:0=${join(root, 'samples/systolic/fc_x.npy')}`, '--report', (reports['systolic'] = join(dir, 'systolic.html'))]);
  expect(r.code, r.err).toBe(0);
  // xnu: stats and trace first, then `pyxis-sim report`
  const x = join(root, 'samples/xnu');
  expect((await call(runAs, [join(x, 'nn.xasm'), '-o', join(dir, 'nn.pobj')])).code).toBe(0);
  expect((await call(runLd, [join(x, 'nn.ld'), join(dir, 'nn.pobj'), '-o', join(dir, 'nn.pimg')])).code).toBe(0);
  expect((await call(runSim, ['run', join(dir, 'nn.pimg'), '--stats', join(dir, 'nn.stats.json'), '--trace', join(dir, 'nn.trace.json')])).code).toBe(0);
  r = await call(runSim, ['report', join(dir, 'nn.stats.json'), join(dir, 'nn.trace.json'), '-o', (reports['xnu'] = join(dir, 'xnu.html'))]);
  expect(r.code, r.err).toBe(0);
  // neuroncore: softmax with its seeded inputs
  for (const [f, t] of Object.entries(sampleInputs())) writeNpyFile(join(dir, f), t);
  copyFileSync(join(root, 'samples/neuroncore/softmax.ld'), join(dir, 'softmax.ld'));
  expect((await call(runAs, [join(root, 'samples/neuroncore/softmax.ncasm'), '-o', join(dir, 'sm.pobj')])).code).toBe(0);
  expect((await call(runLd, [join(dir, 'softmax.ld'), join(dir, 'sm.pobj'), '-o', join(dir, 'sm.pimg')])).code).toBe(0);
  r = await call(runSim, ['run', join(dir, 'sm.pimg'), '--report', (reports['neuroncore'] = join(dir, 'neuroncore.html'))]);
  expect(r.code, r.err).toBe(0);
  // a sweep's results table (CSV with a header row)
  writeFileSync(join(dir, 'sweep.csv'), 'rows,clusters,cycles,tflops\n1024,1,5000,1.5\n2048,1,9800,1.6\n1024,2,2600,2.9\n2048,2,5100,3.0\n');
  r = await call(runSim, ['report', '--sweep', join(dir, 'sweep.csv'), '--group', 'clusters', '-o', (sweepReport = join(dir, 'sweep.html'))]);
  expect(r.code, r.err).toBe(0);
}, 60_000);
let sweepReport = '';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('HTML run report, without a browser', () => {
  it('is one self-contained file: no script, no external URL, the model stated', () => {
    for (const [t, f] of Object.entries(reports)) {
      const html = readFileSync(f, 'utf8');
      expect(html, t).toMatch(/^<!DOCTYPE html>/);
      expect(html, t).not.toMatch(/<script|<link |src="http|href="http|url\(http|@import/i);
      expect(html, t).toMatch(/What these figures model:<\/b> \w/);
      expect(html, t).not.toMatch(/not stated by the target/);
      expect(statSync(f).size, t).toBeLessThan(2_000_000);
    }
  });
  it('`--report -` and `report -o -` write the page to stdout (the summary then goes to stderr)', async () => {
    const r = await call(runSim, ['run', join(dir, 'mbr.pimg'), '--report', '-']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
    expect(r.err).toMatch(/completed after \d+ cycles/);
    const x = await call(runSim, ['report', join(dir, 'nn.stats.json'), '-o', '-']);
    expect(x.out).toMatch(/^<!DOCTYPE html>/);
  });
  it('draws the sections each target promises', () => {
    const html = (t: string) => readFileSync(reports[t]!, 'utf8');
    expect(html('pyxis')).toMatch(/Trips per engine/);
    expect(html('pyxis')).toMatch(/Stall cycles per trip by reason/);
    expect(html('pyxis')).toMatch(/data-kind="roofline"/);
    expect(html('pyxis')).toMatch(/AMEM banks/);
    expect(html('system')).toMatch(/Chips over time: engine utilisation/);
    expect(html('system')).toMatch(/Links: utilisation/);
    expect(html('system')).toMatch(/chip0 → chip1/);
    expect(html('system')).toMatch(/data-kind="heatmap"/);
    expect(html('systolic')).toMatch(/Cycles per layer/);
    expect(html('systolic')).toMatch(/MAC efficiency per layer/);
    expect(html('systolic')).toMatch(/DRAM: \d+ of \d+ cycles/);
    expect(html('neuroncore')).toMatch(/MFU [\d.]+%/);
    expect(html('xnu')).toMatch(/Cycles per controller phase/);
    for (const t of Object.keys(reports)) expect(html(t), t).toMatch(/data-kind="gantt"/);
  });
  it('refuses a statistics file that is not JSON or names no target (exit 1, no output)', async () => {
    const bad = join(dir, 'bad.json');
    const out = join(dir, 'never.html');
    await import('node:fs').then((fs) => fs.writeFileSync(bad, '{"target": "pyxis",\n  "cycles": }'));
    let r = await call(runSim, ['report', bad, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.json:2:13: error\[CLI0030\]/);
    await import('node:fs').then((fs) => fs.writeFileSync(bad, '{"target": "nope"}'));
    r = await call(runSim, ['report', bad, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/CLI0031.*`nope` is not a registered target/);
    expect(existsSync(out)).toBe(false);
  });
});

describe.skipIf(!have && process.env['CI'] !== 'true')('HTML run report in headless Chromium', () => {
  let ctx: BrowserContext;
  beforeAll(async () => {
    if (!have) throw new Error(`chromium not found at ${CHROMIUM}: .ci/run installs it (apt-get install chromium)`);
    ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'pyxis-chromium-')), { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1000, height: 1200 } });
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
  });

  for (const t of ['pyxis', 'system', 'systolic', 'xnu', 'neuroncore', 'sweep'])
    it(`${t}: loads without errors, every chart drawn, screenshot not blank`, async () => {
      const page = await ctx.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      const url = pathToFileURL(t === 'sweep' ? sweepReport : reports[t]!).href;
      page.on('request', (req) => {
        if (req.url() !== url) problems.push(`request: ${req.url()}`);
      });
      await page.goto(url, { waitUntil: 'load' });
      const charts = await page.$$eval('.chart', (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          const marks = e.tagName.toLowerCase() === 'table' ? e.querySelectorAll('tbody tr').length : e.querySelectorAll('.mark').length;
          const visible = [...e.querySelectorAll('.mark, tbody tr')].filter((m) => {
            const b = m.getBoundingClientRect();
            return b.width > 0 || b.height > 0; // a flat line has no height
          }).length;
          return { kind: e.getAttribute('data-kind'), marks, visible, w: r.width, h: r.height };
        }),
      );
      expect(charts.length, t).toBeGreaterThan(2);
      for (const c of charts) {
        expect(c.marks, `${t} ${c.kind}`).toBeGreaterThan(0);
        expect(c.visible, `${t} ${c.kind}`).toBeGreaterThan(0);
        expect(c.w * c.h, `${t} ${c.kind}`).toBeGreaterThan(0);
      }
      const png = await page.screenshot({ fullPage: false });
      await page.close();
      // decode the screenshot in the browser itself: count distinct colours of a 4x-subsampled grid
      const probe = await ctx.newPage();
      // (a string: the tests are type-checked without the DOM library)
      const colours = (await probe.evaluate(`(async (b64) => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const cv = document.createElement('canvas');
        cv.width = img.width;
        cv.height = img.height;
        const g = cv.getContext('2d');
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, cv.width, cv.height).data;
        const seen = new Set();
        let nonWhite = 0;
        for (let y = 0; y < cv.height; y += 4)
          for (let x = 0; x < cv.width; x += 4) {
            const i = (y * cv.width + x) * 4;
            seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
            if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) nonWhite++;
          }
        return { distinct: seen.size, nonWhite, w: cv.width, h: cv.height };
      })(${JSON.stringify(png.toString('base64'))})`)) as { distinct: number; nonWhite: number; w: number; h: number };
      await probe.close();
      expect(colours.w, t).toBe(1000);
      expect(colours.distinct, t).toBeGreaterThan(8);
      expect(colours.nonWhite, t).toBeGreaterThan(500);
      expect(problems, t).toEqual([]);
    }, 30_000);
});
