/** Inputs of the sweep tests. */
import { ImageBuilder, bytesOf, gid } from '../../target-pyxis/test/sim/pyxisImage.js';

const desc = ImageBuilder.desc;

/** H2A of 1 KiB HBM -> AMEM, a barrier, then A2H back: one HBM read latency and one write latency, serial. */
export function copyImage() {
  const b = new ImageBuilder();
  b.tensor('x', 'hbm', 0x8000, bytesOf(1024, (i) => i), [8, 128], 'RFP8', 0);
  b.list(0x22, 0x1000, [desc('desc_barrier_config', { barrier_id: 3, notify_count: 1, wait_count: 1 })]);
  b.list(0x10, 0x1100, [desc('desc_h2a', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x8000 >> 10, length: 1, notify_list: [gid(0, 3)], trip_id: 1 })]);
  b.list(0x11, 0x1200, [desc('desc_a2h', { amem_start_address: 0x40000 >> 7, hbm_base_address: 0x10000 >> 10, length: 1, wait_barrier_id: 3, trip_id: 2 })]);
  b.metadata = { barriers: [{ cluster: 0, id: 3 }] };
  return b.build();
}

