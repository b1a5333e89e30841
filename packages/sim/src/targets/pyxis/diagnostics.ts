/** Diagnostic codes of the simulator (SIM = pyxis-sim runtime and image loading). */
import { DiagnosticError, error, type Diagnostic } from '@pyxis/diagnostics';

export const SimCodes = {
  /** Image is not a pyxis .pimg / malformed section or metadata. */
  badImage: 'SIM0001',
  badEnqueue: 'SIM0002',
  badDescriptor: 'SIM0003',
  noEngine: 'SIM0004',
  badAddress: 'SIM0005',
  badPatch: 'SIM0006',
  barrierOverflow: 'SIM0007',
  barrierReuse: 'SIM0008',
  barrierTimeout: 'SIM0009',
  deadlock: 'SIM0010',
  maxCycles: 'SIM0011',
  misaligned: 'SIM0012',
  badDump: 'SIM0013',
  uninitRead: 'SIM0014',
  overlapWrite: 'SIM0015',
  badConfig: 'SIM0016',
  queueFull: 'SIM0017',
} as const;

export const CHIP_SPEC = 'pyxis-chip-fspec.md';

/** A runtime rule violation: a DiagnosticError carrying the spec section and the simulated cycle. */
export function runtimeError(code: string, message: string, section: string, cycle: number, notes: string[] = []): DiagnosticError {
  return new DiagnosticError(error(code, `cycle ${cycle}: ${message}`, { spec: `${CHIP_SPEC} ${section}`, notes }));
}

export function imageError(file: string, code: string, message: string, offset = 0, extra: Partial<Diagnostic> = {}): DiagnosticError {
  return new DiagnosticError(error(code, message, { span: { file, offset }, ...extra }));
}
