/**
 * SIM0900: the adapter's timers (grammars/pyxis/fabric_adapter.json `timers`, in cycles, MODEL: the spec gives no
 * values, §10.7.1.1 / §10.8.1.1) against the fabric RTT of the run (the system's `fabric.rtt_ns` at the run's clock).
 * Each timer must outlast the round trips of the exchange it guards, or a healthy job times out and fails (chip
 * §10.3.1): the Tx ACK wait covers the last page's flight and the ACK's request / grant and flight (2 RTT); the Rx
 * data wait and the Tx CTS wait a CTS and then the first page, each with its request / grant (3 RTT); the Tx-active
 * and Rx job-completion timers, restarted by every page, one grant (1 RTT). A warning, not an error: the run still
 * shows what the hardware would do (docs/spec-notes.md, audit).
 */
import { warning, type Diagnostic } from '@pyxis/diagnostics';
import { FabricCodes } from './codes.js';
import type { FabricAdapterParams } from './params.js';

const ROUND_TRIPS: Array<[keyof FabricAdapterParams['timers'], number, string]> = [
  ['tx_ack_wait_timeout_cycles', 2, 'the last page and the ACK'],
  ['rx_data_wait_timeout_cycles', 3, 'the CTS and the first page'],
  ['tx_cts_wait_timeout_cycles', 3, 'the CTS and the first page'],
  ['tx_active_timeout_cycles', 1, 'one grant'],
  ['rx_job_completion_timeout_cycles', 1, 'one grant'],
];

export function rttTimerWarnings(rttCycles: number, rttNs: number, timers: FabricAdapterParams['timers']): Diagnostic[] {
  const short = ROUND_TRIPS.filter(([k, n]) => timers[k] <= n * rttCycles);
  if (!short.length) return [];
  return [
    warning(
      FabricCodes.rttVsTimers,
      `the fabric RTT (${rttNs} ns = ${rttCycles} cycles) is too long for the fabric adapter's timers: ${short
        .map(([k, n, what]) => `timers.${k} = ${timers[k]} cycles does not exceed ${n} RTT (${what})`)
        .join('; ')}: RDMA jobs may time out and fail`,
      { spec: 'pyxis-chip-fspec.md §10.3.1, §10.7.1.1, §10.8.1.1', notes: ['the timers are grammars/pyxis/fabric_adapter.json `timers` (MODEL), in cycles, while the RTT is in ns: lower the system\'s `fabric.rtt_ns` or the clock (`--clock-hz`, `clock_hz`)'] },
    ),
  ];
}
