/**
 * The toy machine on the shared kernel: one engine (`acc`) fetching 16-bit
 * words from imem, an accumulator and 256 data words. Timing, so cycle counts
 * are exact and checkable by hand: LOAD/ADD/SUB/STORE take 2 cycles (a data
 * memory access), LOADI/JNZ/HALT 1. The kernel counts the cycles, stops runaway
 * programs at --max-cycles and reports per-engine busy cycles.
 */
import { DiagnosticError, error, type Diagnostic } from '@pyxis/diagnostics';
import { decode, enumName, type CompiledTable } from '@pyxis/codec';
import { Simulator, TraceWriter, type SimEngine, type TraceTrack } from '@pyxis/sim';
import type { Container } from '@pyxis/container';
import type { MachineInstance, MachineRequest, MachineResult } from '@pyxis/target';
import { DMEM_WORDS, IMEM_WORDS } from './ld.js';

const CLOCK_HZ = 100e6;
export const LATENCY: Record<string, number> = { HALT: 1, LOADI: 1, JNZ: 1, LOAD: 2, ADD: 2, SUB: 2, STORE: 2 };

class AccEngine implements SimEngine {
  readonly name = 'acc';
  readonly group = 'toy';
  acc = 0;
  pc: number;
  retired = 0;
  halted = false;
  fault: string | undefined;
  private wait = 0;
  private readonly track: TraceTrack | undefined;
  constructor(
    private readonly insn: CompiledTable,
    readonly imem: Uint8Array,
    readonly dmem: Uint16Array,
    entry: number,
    private readonly trace: TraceWriter | undefined,
  ) {
    this.pc = entry;
    this.track = trace?.track('toy', 'acc');
  }
  get busy(): boolean {
    return !this.halted;
  }
  tick(now: number): boolean {
    if (this.halted) return false;
    if (this.wait > 0) {
      this.wait--;
      return true;
    }
    if (this.pc >= IMEM_WORDS) return this.stop(`PC ${this.pc} is outside imem (${IMEM_WORDS} words)`);
    const v = decode(this.insn, this.imem, this.pc * this.insn.bytes);
    const op = Number(v['opcode']);
    const arg = Number(v['arg']);
    const name = this.insn.byName.get('opcode')!.enumNames!.get(op);
    if (name === undefined) return this.stop(`invalid opcode ${op} at PC ${this.pc}`);
    if (name !== 'HALT' && name !== 'LOADI' && name !== 'JNZ' && arg >= DMEM_WORDS) return this.stop(`${name} at PC ${this.pc}: data address ${arg} is outside dmem (${DMEM_WORDS} words)`);
    const lat = LATENCY[name]!;
    this.trace?.slice(this.track!, now, now + lat, `${this.pc} ${enumName(this.insn, 'opcode', op)}`, { acc: this.acc }, 'insn');
    let next = this.pc + 1;
    switch (name) {
      case 'HALT':
        this.halted = true;
        break;
      case 'LOADI':
        this.acc = arg;
        break;
      case 'LOAD':
        this.acc = this.dmem[arg]!;
        break;
      case 'ADD':
        this.acc = (this.acc + this.dmem[arg]!) & 0xffff;
        break;
      case 'SUB':
        this.acc = (this.acc - this.dmem[arg]!) & 0xffff;
        break;
      case 'STORE':
        this.dmem[arg] = this.acc;
        break;
      case 'JNZ':
        if (this.acc !== 0) next = arg;
        break;
    }
    this.pc = next;
    this.retired++;
    this.wait = lat - 1;
    return true;
  }
  private stop(why: string): boolean {
    this.fault = why;
    this.halted = true;
    return false;
  }
  nextWake(): number {
    return this.halted ? Infinity : 0;
  }
  blockedReason(): string | undefined {
    return this.halted ? undefined : `at PC ${this.pc}`;
  }
}

function load(image: Container, file: string) {
  const imem = new Uint8Array(IMEM_WORDS * 2);
  const dmem = new Uint16Array(DMEM_WORDS);
  for (const s of image.sections) {
    if (s.space === 'imem') imem.set(s.data, s.address * 2);
    else if (s.space === 'dmem') for (let i = 0; i + 1 < s.data.length; i += 2) dmem[s.address / 2 + i / 2] = s.data[i]! | (s.data[i + 1]! << 8);
    else throw new DiagnosticError(error('TSIM0002', `section \`${s.name}\` is in space \`${s.space}\`; the toy machine has imem and dmem`, { span: { file, offset: s.fileOffset ?? 0 } }));
  }
  const entry = image.metadata['entry'];
  return { imem, dmem, entry: typeof entry === 'number' ? entry : 0 };
}

export function createToyMachine(req: MachineRequest, insn: CompiledTable): MachineInstance {
  const { imem, dmem, entry } = load(req.image, req.file);
  const kernel = new Simulator();
  const trace = req.trace ? new TraceWriter(req.trace, req.clockHz ?? CLOCK_HZ) : undefined;
  const eng = new AccEngine(insn, imem, dmem, entry, trace);
  kernel.add(eng);
  return {
    kernel,
    run(): MachineResult {
      const r = kernel.run(req.maxCycles !== undefined ? { maxCycles: req.maxCycles } : {});
      trace?.close();
      req.vcd?.abort();
      const stop: Diagnostic[] = [];
      if (eng.fault) stop.push(error('TSIM0001', `the toy machine stopped at cycle ${r.cycles}: ${eng.fault}`, { span: { file: req.file, offset: 0 } }));
      else if (r.reason !== 'done') stop.push(error('TSIM0003', `${r.reason} after ${r.cycles} cycles`, { span: { file: req.file, offset: 0 }, notes: r.waitGraph }));
      const dumps: Array<[string, Uint8Array]> = [];
      const dumpFile = req.options['dumpData'];
      if (typeof dumpFile === 'string') dumps.push([dumpFile, new Uint8Array(dmem.buffer.slice(0))]);
      const busy = kernel.engineStats()[0]!.busy;
      return {
        summary: `toy: ${eng.halted && !eng.fault ? 'halted' : 'stopped'} after ${r.cycles} cycles, ${eng.retired} instructions, acc=${eng.acc}\n`,
        stats: { model: 'toy accumulator machine: cycle-exact by construction (1 or 2 cycles per instruction)', cycles: r.cycles, instructions: eng.retired, acc: eng.acc, busy, dmem: [...dmem.subarray(0, 8)] },
        diagnostics: [],
        ...(stop.length ? { stop } : {}),
        outputs: dumps,
        cycles: r.cycles,
      };
    },
  };
}
