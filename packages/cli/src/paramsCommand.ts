/** `pyxis-sim params [--target NAME] [--json]`: the machine parameter table of a target (keys for --set). */
import { Option, type Command } from 'commander';
import { missingPart, paramRangeText } from '@pyxis/target';
import type { ToolContext } from './tool.js';
import { addTargetOption, chooseTargetName, headerTarget, resolveTarget } from './targetOptions.js';

export function registerParams(program: Command, ctx: () => ToolContext): void {
  const cmd = program
    .command('params')
    .description("list a target's machine parameters: key, default, accepted values and unit, spec section (keys of --set and --sim-config)")
    .addOption(new Option('--json', 'print the table as JSON'));
  addTargetOption(cmd);
  cmd.action(async (opts: { target?: string; json?: boolean }) => {
    const c = ctx();
    const { target } = await resolveTarget(chooseTargetName(opts.target, [], headerTarget), 'sim', cmd);
    if (!target.machine) throw missingPart(target, 'simulator');
    const table = target.machine.parameters?.();
    if (!table) {
      c.out(opts.json ? '[]\n' : `target ${target.name} has no machine parameters\n`);
      return;
    }
    if (opts.json) {
      c.out(JSON.stringify(table.params, null, 2) + '\n');
      return;
    }
    const rows = table.params.map((p) => [p.key, String(p.default), paramRangeText(p), p.spec]);
    const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), ['key', 'default', 'accepts'][i]!.length));
    const line = (r: string[]) => r.map((x, i) => (i < 3 ? x.padEnd(w[i]!) : x)).join('  ').trimEnd() + '\n';
    c.out(`${target.name} machine parameters (defaults: grammars/${target.name}/${table.source}; --set KEY=VALUE, --sim-config FILE.json)\n`);
    c.out(line(['key', 'default', 'accepts', 'spec']) + rows.map(line).join(''));
  });
}
