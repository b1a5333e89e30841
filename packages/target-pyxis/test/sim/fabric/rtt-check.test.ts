/**
 * SIM0900 (rttCheck.ts): a warning when the fabric RTT of a run is not far enough below the adapter's timers. The
 * expected thresholds are derived here from grammars/pyxis/fabric_adapter.json read as plain JSON: the ACK wait must
 * exceed 2 RTT, the Rx data wait and Tx CTS wait 3 RTT, the Tx-active and Rx job-completion timers 1 RTT.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { rttTimerWarnings } from '../../../src/sim/fabric/rttCheck.js';

const timers = JSON.parse(readFileSync(new URL('../../../../../grammars/pyxis/fabric_adapter.json', import.meta.url), 'utf8')).timers;

describe('SIM0900: fabric RTT against the adapter timers', () => {
  it('the default RTT (2 us = 2660 cycles) is far below every timer: no warning', () => {
    expect(rttTimerWarnings(2660, 2000, timers)).toEqual([]);
  });

  it('the first RTT that reaches a timer is the ACK wait at 2 RTT; one more cycle of timer clears it', () => {
    const rtt = Math.min(timers.tx_ack_wait_timeout_cycles / 2, timers.rx_data_wait_timeout_cycles / 3, timers.tx_cts_wait_timeout_cycles / 3, timers.tx_active_timeout_cycles, timers.rx_job_completion_timeout_cycles);
    expect(rtt).toBe(timers.tx_ack_wait_timeout_cycles / 2); // 33250 cycles with the shipped timers
    const w = rttTimerWarnings(Math.ceil(rtt), 25000, timers);
    expect(w).toHaveLength(1);
    expect(w[0]!.code).toBe('SIM0900');
    expect(w[0]!.severity).toBe('warning');
    expect(w[0]!.message).toContain(`timers.tx_ack_wait_timeout_cycles = ${timers.tx_ack_wait_timeout_cycles} cycles does not exceed 2 RTT`);
    expect(w[0]!.message).not.toContain('rx_data_wait');
    expect(rttTimerWarnings(Math.ceil(rtt) - 1, 25000, timers)).toEqual([]);
  });

  it('an RTT of 100 us names every timer it reaches', () => {
    const rtt = 133000;
    const m = rttTimerWarnings(rtt, 100000, timers)[0]!.message;
    for (const [k, n] of [['tx_ack_wait_timeout_cycles', 2], ['rx_data_wait_timeout_cycles', 3], ['tx_cts_wait_timeout_cycles', 3], ['tx_active_timeout_cycles', 1], ['rx_job_completion_timeout_cycles', 1]] as const)
      expect(m.includes(`timers.${k} `), k).toBe(timers[k] <= n * rtt);
  });
});
