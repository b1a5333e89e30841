/** Active Power Management (chip §13) against a hand-computed ramp. */
import { describe, expect, it } from 'vitest';
import { Apm } from '@pyxis/target-pyxis/sim';

const cfg = { enabled: true, power_update_period: 64, max_delta_power: 16, min_granted_power: 32, max_granted_power: 4096 };

describe('APM', () => {
  it('ramps GrantedPower by MaxDeltaPower per PowerUpdatePeriod and throttles to Granted/Requested', () => {
    const apm = new Apm(cfg, 1);
    apm.request(100, 0);
    expect(apm.utilization).toBeCloseTo(0.32);
    // exactly 32 of 100 cycles are admitted at 32 %
    let ok = 0;
    for (let i = 0; i < 100; i++) if (apm.allow(0)) ok++;
    expect(ok).toBe(32);
    const granted: number[] = [];
    for (let t = 0; t <= 400; t++) if (apm.tick(t)) granted.push(apm.granted);
    // 32 -> 48 (t=64) -> 64 -> 80 -> 96 -> 100 (t=320): delta 16 per 64 cycles, clamped at the request
    expect(granted).toEqual([48, 64, 80, 96, 100]);
    expect(apm.utilization).toBe(1);
    expect(apm.nextWake(401)).toBe(Infinity);
  });

  it('throttles GrantedPower back down when the load drops, not below MinGrantedPower', () => {
    const apm = new Apm(cfg, 1);
    apm.request(64, 0);
    for (let t = 0; t < 200; t++) apm.tick(t);
    expect(apm.granted).toBe(64);
    apm.request(-64, 200);
    const seen: number[] = [];
    for (let t = 200; t < 600; t++) if (apm.tick(t)) seen.push(apm.granted);
    expect(seen).toEqual([48, 32]);
  });

  it('does nothing when disabled', () => {
    const apm = new Apm({ ...cfg, enabled: false }, 1);
    apm.request(1000, 0);
    expect(apm.utilization).toBe(1);
    expect(apm.allow(0)).toBe(true);
  });
});
