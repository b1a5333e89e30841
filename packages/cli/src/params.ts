/**
 * `--set KEY=VALUE` and `--sim-config FILE.json`: the driver resolves a machine's parameters once (defaults <- file
 * <- --set <- --clock-hz) against the target's table (@pyxis/target params.ts) and hands the one validated set to
 * the machine. Diagnostic codes: CLI0020 (the parameter file is not JSON), CLI0021 (a target without parameters
 * was given --set/--sim-config: a usage error).
 */
import { DiagnosticError, UsageError } from '@pyxis/diagnostics';
import { readInputText } from '@pyxis/container';
import { overrideParam, resolveParams, type MachineBackend, type ParamSet, type Target } from '@pyxis/target';

export interface ParamOptions {
  set?: string[];
  simConfig?: string;
  clockHz?: number;
}

/** Reads a JSON parameter file: not JSON is an input error (exit 1) with the line and column of the fault. */
export function readParamFile(file: string): unknown {
  const text = readInputText(file);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const offset = m ? Number(m[1]) : 0;
    const before = text.slice(0, offset).split('\n');
    throw new DiagnosticError({
      severity: 'error',
      code: 'CLI0020',
      message: `${file} is not valid JSON: ${(e as Error).message}`,
      span: { file, line: before.length, column: before[before.length - 1]!.length + 1, length: 1 },
    });
  }
}

/** The machine's parameters for this run, or undefined when the target has no table (and none were asked for). */
export function machineParams(target: Target, machine: MachineBackend, o: ParamOptions): ParamSet | undefined {
  const table = machine.parameters?.();
  if (!table) {
    if (o.set?.length || o.simConfig)
      throw new UsageError(`target ${target.name} has no machine parameters: --set and --sim-config do not apply (CLI0021)`);
    return undefined;
  }
  const set = resolveParams(table, {
    ...(o.simConfig ? { file: { name: o.simConfig, data: readParamFile(o.simConfig) } } : {}),
    ...(o.set?.length ? { sets: o.set } : {}),
  });
  // `--clock-hz` is the `clock_hz` parameter of a table that has one (the same value, its own source)
  if (o.clockHz !== undefined && table.byKey.has('clock_hz')) overrideParam(set, 'clock_hz', o.clockHz, 'option');
  return set;
}
