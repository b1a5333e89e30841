/** @pyxis/sim: the target-neutral simulation kernel (clock, engines, FIFOs, ports, stats, trace and VCD writers). */
export * from './kernel/index.js';
