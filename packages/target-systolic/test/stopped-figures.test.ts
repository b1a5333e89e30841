/**
 * A run stopped by --max-cycles completed no frame: it reports no frame time or frame rate (a 3-cycle stop of the fc
 * sample once printed "0.000 ms/frame, 33333333.3 frames/s").
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readNpy } from '@pyxis/container';
import { imageFromTModel, imageParts, simulate } from '../src/index.js';

const dir = fileURLToPath(new URL('../../../samples/systolic/', import.meta.url));

describe('figures of a stopped systolic run', () => {
  const file = dir + 'fc.tmodel';
  const parts = imageParts(imageFromTModel(readFileSync(file, 'utf8'), file), file);
  const x = readNpy(readFileSync(dir + 'fc_x.npy'), dir + 'fc_x.npy');
  const go = (maxCycles?: number) => simulate({ parts, file, inputs: new Map([['x:0', x]]), ...(maxCycles !== undefined ? { maxCycles } : {}) });

  test('a finished run reports its frame time; a stopped one reports none and says why', () => {
    const full = go();
    expect(full.stop).toBe('done');
    expect(full.stats['frames_per_second']).toBeCloseTo(Number(full.stats['clock_hz']) / full.cycles, 6);
    expect(full.summary).toMatch(/ms\/frame/);
    const stopped = go(3);
    expect(stopped.stop).toBe('max-cycles');
    expect(stopped.stats['stop']).toBe('max-cycles');
    expect(stopped.stats['frames_per_second']).toBe(0);
    expect(stopped.stats['seconds']).toBe(3 / Number(stopped.stats['clock_hz']));
    expect(stopped.summary).not.toMatch(/frames\/s|ms\/frame/);
    expect(stopped.summary).toMatch(/stopped \(max-cycles\) at cycle 3: no frame completed/);
  });
});
