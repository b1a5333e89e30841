/**
 * A listing of an assembled program: the expanded instruction streams (after loop unrolling,
 * matmul/transpose expansion and DMA splitting) with the semaphores the assembler inserted.
 */
import { STREAMS, type AP, type NcProgram } from './ir.js';

function ap(p: NcProgram, a: AP): string {
  const t = p.tensors[a.tensor]!;
  const dims = a.dims.map(([s, st]) => `${s}x${st}`).join(',');
  return a.mem === 'hbm' ? `${t.name}@hbm+${a.offset}[${a.np}x${a.pstride};${dims}]` : `${t.name}@${a.mem}[p${a.start}+${a.np};+${a.offset};${dims}]`;
}

export function disassembleNc(p: NcProgram): string {
  const lines = [`# NeuronCore program: ${p.insns.length} instructions, sync ${p.sync}`];
  for (const t of p.tensors) lines.push(`.tensor ${t.name} ${t.mem} ${t.dtype} [${t.shape.join(', ')}]${t.mem === 'hbm' ? '' : ` partition=${t.partition}, offset=${t.offset}`}`);
  p.insns.forEach((i, k) => {
    const ops = [...(i.out ? [ap(p, i.out)] : []), ...i.ins.map((a) => ap(p, a))];
    const attrs = Object.entries(i.attrs).map(([key, v]) => `${key}=${typeof v === 'object' && !Array.isArray(v) ? ap(p, v) : Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`);
    const waits = i.waits.map(([s, v]) => `wait ${p.semaphores[s]}>=${v}`);
    const sig = i.signal ? [`signal ${p.semaphores[i.signal[0]]}+=${i.signal[1]}`] : [];
    lines.push(`${String(k).padStart(6)} ${STREAMS[i.stream]!.padEnd(6)} ${i.op} ${[...ops, ...attrs].join(', ')}${waits.length || sig.length ? '  ; ' + [...waits, ...sig].join(' ') : ''}  ; ${i.file}:${i.line}`);
  });
  return lines.join('\n') + '\n';
}
