/**
 * The progress bar of long runs (`pyxis-sim run`, stderr, TTY only, never with CI set, only after 1 s): trips done
 * of the image's total when the machine counts them, else cycles of `--max-cycles` when bounded, with an ETA
 * (cli-progress's, from the rate so far); an unbounded run without a count shows the cycles simulated.
 */
import type { ProgressWork } from '@pyxis/target';

export interface ProgressView {
  /** cli-progress format string. */
  format: string;
  value: number;
  /** 0 when there is no total (no bar, no ETA). */
  total: number;
}

export function progressView(tool: string, cycle: number, work: ProgressWork | undefined, maxCycles: number | undefined): ProgressView {
  if (work && work.total > 0) return { format: `${tool} |{bar}| {value}/{total} ${work.unit} | cycle {cycle} | ETA {eta_formatted}`, value: work.done, total: work.total };
  if (maxCycles) return { format: `${tool} |{bar}| {value}/{total} cycles | ETA {eta_formatted}`, value: Math.min(cycle, maxCycles), total: maxCycles };
  return { format: `${tool} {value} cycles simulated`, value: cycle, total: 0 };
}
