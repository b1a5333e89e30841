/** Host actions (metadata.pyxis.host_actions): barrier interrupts and bt_mem_decrement responses (chip §11.6.5, §11.6.6). */
import { describe, expect, it } from 'vitest';
import { encode, loadTable } from '@pyxis/codec';
import { DiagnosticError } from '@pyxis/diagnostics';
import { CSR_BARRIER_INTERRUPT_CONFIG, CSR_BT_MEM_DECREMENT, simulateImage } from '@pyxis/target-pyxis/sim';
import { ImageBuilder, gid } from './pyxisImage.js';

const desc = ImageBuilder.desc;
const hex64 = (b: Uint8Array) => '0x' + Array.from(b).reverse().map((x) => x.toString(16).padStart(2, '0')).join('');

function image(withResponse: boolean) {
  const b = new ImageBuilder();
  // barrier 6: one producer (H2A); two consumers: the A2H trip and the CPU (interrupt entry 1)
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 6, notify_count: 1, wait_count: 2 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0, hbm_base_address: 0, length: 1, notify_list: [gid(0, 6)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0, hbm_base_address: 8, length: 1, wait_barrier_id: 6, trip_id: 2 })]);
  const intr = encode(loadTable('pyxis', 'barrier_interrupt_config'), { interrupt_valid: 1, barrier_id: 6 });
  const decr = encode(loadTable('pyxis', 'barrier_decr_cnt'), { wait_decr: 1, trip_id: 99 });
  const actions: unknown[] = [{ cluster: 0, address: `0x${(0x4000_0000 + CSR_BARRIER_INTERRUPT_CONFIG + 8).toString(16)}`, value: hex64(intr) }];
  if (withResponse) actions.push({ cluster: 0, address: `0x${(0x4000_0000 + CSR_BT_MEM_DECREMENT + 6 * 8).toString(16)}`, value: hex64(decr), after_interrupt: { entry: 1 } });
  b.metadata = { host_actions: actions };
  return b.build();
}

describe('host actions', () => {
  it('the CPU reference of an interrupting barrier is released by a bt_mem_decrement after the interrupt', () => {
    const { report, chip } = simulateImage(image(true), 'irq.pimg');
    expect(report.stop).toBe('done');
    expect(report.barriers[0]!.interrupts[1]).toBe(1);
    expect(report.barriers[0]!.frees).toBe(1);
    expect(chip.barriers[0]!.refCountsValid[6]).toBe(0);
    expect(report.barrier_events['sw_decrement']).toBe(1);
  });

  it('without the response the barrier stays valid (CPU reference outstanding)', () => {
    const { report, chip } = simulateImage(image(false), 'irq2.pimg');
    expect(report.stop).toBe('done');
    expect(report.barriers[0]!.interrupts[1]).toBe(1);
    expect(report.barriers[0]!.frees).toBe(0);
    expect(chip.barriers[0]!.waitCount[6]).toBe(1);
  });

  it('a host action waiting for an interrupt that never fires is reported in the wait graph', () => {
    const b = new ImageBuilder();
    b.metadata = { host_actions: [{ cluster: 0, address: '0x40f01008', value: '0x1', after_interrupt: { entry: 3 } }] };
    const { report } = simulateImage(b.build(), 'never.pimg');
    expect(report.stop).toBe('deadlock');
    expect(report.wait_graph[0]).toMatch(/host: host action 0 waits for interrupt 3 of cluster 0/);
  });

  it('rejects malformed host actions', () => {
    const b = new ImageBuilder();
    b.metadata = { host_actions: [{ cluster: 0, address: '0x1000', value: '1' }] };
    expect(() => simulateImage(b.build(), 'bad.pimg')).toThrow(DiagnosticError);
  });
});
