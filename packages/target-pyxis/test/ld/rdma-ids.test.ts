/**
 * LD0950 / LD0951 (chip §10.4): two RDMA Tx (Rx) trips of one cluster with the same TJID (RJID) must be ordered by
 * the dependency graph, or the second job could reach the job table while the first is active (SIM0753 at run time).
 */
import { describe, expect, it } from 'vitest';
import { link } from '@pyxis/target-pyxis/ld';
import { linkErr } from './helpers.js';

const MEM = `memory amem0 { space = amem; cluster = 0; origin = 0; length = 16M; }
tensor a { format = RFP8; shape = [2, 128]; region = amem0; }
tensor b { format = RFP8; shape = [2, 128]; region = amem0; }
`;

describe('RDMA job ids in one image', () => {
  it('LD0950: the same TJID twice with no dependency; the help names the `after` to add', () => {
    const d = linkErr({ scriptFile: 't.ld', script: MEM + 'queue rdma_tx0 { trip s1 { src = a; tjid = 5; rjid = 1; dest_voq = 4; } }\nqueue rdma_tx1 { trip s2 { src = b; tjid = 5; rjid = 2; dest_voq = 8; } }\n' });
    expect(d.map((x) => [x.code, (x.span as { line: number }).line])).toEqual([['LD0950', 5]]);
    expect(d[0]!.message).toMatch(/trips `s1` and `s2` of cluster 0 use TJID 5 with no dependency/);
    expect(d[0]!.notes?.[0]).toMatch(/add `s2 after s1;`/);
    expect(d[0]!.spec).toMatch(/§10.4/);
    // the same queue does not order them either (the job manager takes the next descriptor at once)
    expect(linkErr({ scriptFile: 't.ld', script: MEM + 'queue rdma_tx0 { trip s1 { src = a; tjid = 5; } trip s2 { src = b; tjid = 5; } }\n' }).map((x) => x.code)).toEqual(['LD0950']);
  });

  it('LD0951 for RJIDs; ordered trips, other ids or other clusters are fine', () => {
    expect(linkErr({ scriptFile: 't.ld', script: MEM + 'queue rdma_rx0 { trip r1 { dst = a; rjid = 9; } trip r2 { dst = b; rjid = 9; } }\n' }).map((x) => x.code)).toEqual(['LD0951']);
    link({ scriptFile: 't.ld', script: MEM + 'queue rdma_rx0 { trip r1 { dst = a; rjid = 9; } trip r2 { dst = b; rjid = 9; } }\nr2 after r1;\n' });
    link({ scriptFile: 't.ld', script: MEM + 'queue rdma_tx0 { trip s1 { src = a; tjid = 5; } trip s2 { src = b; tjid = 6; } }\nqueue rdma_rx0 { trip r1 { dst = a; rjid = 5; } }\n' });
    link({
      scriptFile: 't.ld',
      script: MEM + 'memory amem1 { space = amem; cluster = 1; origin = 0; length = 16M; }\ntensor c { format = RFP8; shape = [2, 128]; region = amem1; }\nqueue rdma_tx0 { trip s1 { src = a; tjid = 5; } }\nqueue rdma_tx0 { cluster = 1; trip s2 { src = c; tjid = 5; } }\n',
    });
  });
});
