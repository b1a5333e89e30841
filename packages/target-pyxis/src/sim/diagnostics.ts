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
  /** An output file (trace, VCD, stats, dump) cannot be created. */
} as const;

export const CHIP_SPEC = 'pyxis-chip-fspec.md';

/** A location in a modelled memory (the shape of noc.ts `NocTarget`): HBM byte address, AMEM view address, cfg-window offset. */
export interface MemLocation {
  space: 'hbm' | 'amem' | 'cfg';
  cluster: number;
  addr: number;
}

/**
 * A runtime error about bytes that came from memory (a descriptor, a patch
 * blob): `at` says where they were read, so `simulateImage` can point the
 * diagnostic at the byte offset of those bytes in the `.pimg` when the image
 * loaded them (image.ts `locateInImage`).
 */
export class SimRuntimeError extends DiagnosticError {
  constructor(
    d: Diagnostic,
    readonly at?: MemLocation,
    /** Bytes of the offending item (span length). */
    readonly length?: number,
  ) {
    super(d);
  }
}

/** A runtime rule violation: a DiagnosticError carrying the spec section and the simulated cycle (and optionally where the offending bytes were read). */
export function runtimeError(code: string, message: string, section: string, cycle: number, notes: string[] = [], at?: MemLocation, length?: number): SimRuntimeError {
  return new SimRuntimeError(error(code, `cycle ${cycle}: ${message}`, { spec: `${CHIP_SPEC} ${section}`, notes }), at, length);
}

/** A runtime error about a trip's descriptor fields: located at the descriptor the DPE fetched (`trip.source`). */
export function tripError(code: string, message: string, section: string, cycle: number, trip: { source?: MemLocation; sourceBytes?: number }): SimRuntimeError {
  return runtimeError(code, message, section, cycle, [], trip.source, trip.sourceBytes);
}

export function imageError(file: string, code: string, message: string, offset = 0, extra: Partial<Diagnostic> = {}): DiagnosticError {
  return new DiagnosticError(error(code, message, { span: { file, offset }, ...extra }));
}
