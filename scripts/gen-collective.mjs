#!/usr/bin/env node
// Writes a Pyxis multi-chip collective: one microcode source, one link script per chip, each chip's input tensors
// (.npy) and the system description, for N chips, a chunk size and an algorithm (docs/collectives.md).
//
//   node scripts/gen-collective.mjs --chips N --algorithm ALG --rows R [--page-size-words P] [--data exact|random|none]
//                                   [--seed S] --out DIR
//
//   ALG: ring-allreduce | ring-reducescatter | ring-allgather | hd-allreduce (halving-doubling, N a power of two)
//   R:   rows of one chunk (a row = 128 RFP16 values = 256 bytes = two AMEM words); the tensor is N chunks (N x R rows)
//
// Then (commands also printed at the end):
//   pyxis-as DIR/collective.pasm -o DIR/collective.pobj
//   pyxis-ld DIR/chipK.ld DIR/collective.pobj -o DIR/chipK.pimg          (every chip K)
//   pyxis-ld DIR/system.json -o DIR/system.psys
//   pyxis-sim run DIR/system.psys --dump chip0:x_c0=DIR/out0_0.npy ...
//
// Every chip holds x = its contribution, stored as N chunk tensors x_c0..x_c{N-1} (RDMA moves whole tensors, chip
// §11.4.6 / docs/linker.md). Data moves by RDMA on cluster 0 (rdma_tx0 / rdma_rx0); received chunks are added into
// place by InMemAdd (chip §7.4.1: a UIE trip whose AMEM Write runs RMW_Add on the rows AMEM Read streams from the
// receive buffer); trips are ordered by `after` (barriers, chip §11.6) with the RDMA completions.
//
// Fabric addressing (chip §10.2): every chip's descriptors name the same VOQs; each chip's Pyxis_VOQ_to_VPFE_map
// points them at its own neighbours. VOQ group g (VOQs 4g..4g+3) is "peer g": ring: peer 1 = next chip, peer 2 =
// previous chip; halving-doubling: peer 1+k = the partner of step k (chip XOR 2^k). Data go to OQ 0 of the peer's
// cluster 0 (VOQ 4g), the Rx job's CTS / ACK messages back to the sender (`msg_voq`, VOQ 4g' of the sender's group).
import { writeFileSync } from 'node:fs';
import { makeDirs } from '../packages/container/dist/index.js';
import { error as diagError, nearest, renderDiagnostics, renderUsageError } from '../packages/diagnostics/dist/index.js';
import { writeErrorReason } from '../packages/container/dist/fileio.js';
import { join, resolve } from 'node:path';

const ALGORITHMS = ['ring-allreduce', 'ring-reducescatter', 'ring-allgather', 'hd-allreduce'];

const USAGE = `usage: node scripts/gen-collective.mjs --chips N --algorithm ${ALGORITHMS.join('|')} --rows R [--page-size-words P] [--data exact|random|none] [--seed S] --out DIR`;

/**
 * Exit codes and forms as pyxis-gen's and the tools' (docs/generators.md "Diagnostics"): 2 usage (`TOOL: error:` with
 * the usage line as help), 1 a parameter the hardware cannot run (`error[GENxxxx]`).
 */
function usage(msg, near) {
  process.stderr.write(`${renderUsageError('gen-collective', msg, [...(near ? [`did you mean \`${near}\`?`] : []), USAGE], 'human', '')}\n`);
  process.exit(2);
}
const OPTIONS = ['--chips', '--algorithm', '--rows', '--page-size-words', '--data', '--seed', '--out', '--help'];
const DATA = ['exact', 'random', 'none'];
function limit(code, msg) {
  process.stderr.write(`${renderDiagnostics([diagError(code, msg)], 'human', { color: false })}\n`);
  process.exit(1);
}

export function parseArgs(argv) {
  const o = { chips: NaN, algorithm: '', rows: NaN, pageSizeWords: 125, data: 'exact', seed: 1, out: '' };
  const given = {};
  const seen = new Map(); // option -> its value: each option once, as the tools (the last value silently winning would generate another system)
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    const take = () => {
      // `--rows --out DIR`: the next option is not the value
      if (v === undefined || /^--./.test(v)) usage(`${a} needs a value`);
      if (seen.has(a)) usage(`${a} given twice (\`${seen.get(a)}\`, then \`${v}\`); it takes one value: give it once`);
      seen.set(a, v);
      i++;
      return v;
    };
    // an integer option: a number written as digits (no 1e3, 0x10, 1.5, '')
    const int = () => {
      const t = take();
      if (!/^-?\d{1,16}$/.test(t)) usage(`${a} must be an integer, got \`${t}\``);
      given[a] = true;
      return Number(t);
    };
    if (a === '--chips') o.chips = int();
    else if (a === '--algorithm') o.algorithm = take();
    else if (a === '--rows') o.rows = int();
    else if (a === '--page-size-words') o.pageSizeWords = int();
    else if (a === '--data') o.data = take();
    else if (a === '--seed') o.seed = int();
    else if (a === '--out') o.out = take();
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n(docs/collectives.md)\n`);
      process.exit(0);
    } else usage(`unknown option ${a}`, a.startsWith('-') ? nearest(a, OPTIONS) : undefined);
  }
  if (!given['--chips']) usage('--chips N is required');
  if (!ALGORITHMS.includes(o.algorithm)) usage(`--algorithm must be one of ${ALGORITHMS.join(', ')}`, o.algorithm ? nearest(o.algorithm, ALGORITHMS) : undefined);
  if (!given['--rows']) usage('--rows R is required');
  if (!DATA.includes(o.data)) usage('--data must be exact, random or none', nearest(o.data, DATA));
  if (!o.out) usage('--out DIR is required');
  if (!(o.chips >= 2 && o.chips <= 144)) limit('GEN0002', `chips: must be in 2..144 (got ${o.chips}; chip §1, §10.2: systems of up to 144 chips)`);
  if (o.algorithm === 'hd-allreduce' && (o.chips & (o.chips - 1)) !== 0) limit('GEN0007', `chips: hd-allreduce (halving-doubling) needs a power of two (got ${o.chips})`);
  // A chunk is one RDMA job: NumWords in [1, 2^16] (chip §11.4.6); one UIE loop counts up to 4096 (seq §2.1, 12 bits).
  if (!(o.rows >= 1 && o.rows <= 4096)) limit('GEN0002', `rows: must be in 1..4096 (got ${o.rows}; one RDMA job per chunk, one UIE loop of at most 4096 iterations, seq §2.1)`);
  if (!(o.pageSizeWords >= 32 && o.pageSizeWords <= 127)) limit('GEN0002', `page-size-words: must be in 32..127 (got ${o.pageSizeWords}; PageSizeWords, chip §11.4.6)`);
  if (!(o.seed >= 0 && o.seed <= 0xffffffff)) limit('GEN0002', `seed: must be in 0..4294967295 (got ${o.seed})`);
  // Each chip's AMEM (64 MiB per cluster, chip §7) holds N chunks + 2 receive buffers.
  const bytes = (o.chips + 2) * o.rows * 256;
  if (bytes > 60 * 2 ** 20) limit('GEN0008', `${o.chips} chunks of ${o.rows} rows need ${bytes} bytes of cluster-0 AMEM per chip; at most ~60 MiB fit (chip §7: 64 MiB per cluster)`);
  return o;
}

/** mulberry32 */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A float32 .npy of shape [rows, 128]. */
export function npyF32(values, rows) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, 128), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const buf = Buffer.alloc(10 + header.length + values.length * 4);
  buf.write('\x93NUMPY', 0, 'latin1');
  buf[6] = 1;
  buf[7] = 0;
  buf.writeUInt16LE(header.length, 8);
  buf.write(header, 10, 'latin1');
  Buffer.from(values.buffer, values.byteOffset, values.length * 4).copy(buf, 10 + header.length);
  return buf;
}

/**
 * Chip `c`'s values of chunk `j`. exact: multiples of 1/16 in [-4, 4]: a sum of up to 32 of them is k/16 with
 * |k| <= 2048, exact in RFP16's 11-bit significand (chip §4), so every partial sum and the result equal the float64
 * sum whatever the order. random: signed values of 6 binades (rounding error bounded as docs/collectives.md says).
 * none: zeros (timing-only studies; no .npy files).
 */
function chunkValues(o, c, j) {
  const n = o.rows * 128;
  const v = new Float32Array(n);
  if (o.data === 'none') return v;
  const r = rng(o.seed * 1000003 + c * 7919 + j);
  for (let i = 0; i < n; i++) v[i] = o.data === 'exact' ? (Math.floor(r() * 129) - 64) / 16 : (r() * 2 - 1) * 2 ** Math.floor(r() * 6 - 3);
  return v;
}

/** The trips of one chip: { tx: [], rx: [], red: [], deps: [[trip, [after...]]] } in queue order. */
export function plan(o, c) {
  const N = o.chips;
  const mod = (x) => ((x % N) + N) % N;
  const tx = [];
  const rx = [];
  const red = [];
  let job = 0;
  // RDMA job ids: the k-th Tx of a chip pairs with the k-th Rx of its peer (both use id k mod 256); a pair is reused
  // only after the earlier job with the same id completed (the plan orders every job after the one 256 before it
  // through its queue: trips of a queue run in order, chip §11.5).
  const nextId = () => job++ % 256;
  const ringPeers = { next: 1, prev: 2 };
  const rs = o.algorithm === 'ring-allreduce' || o.algorithm === 'ring-reducescatter';
  const ag = o.algorithm === 'ring-allreduce' || o.algorithm === 'ring-allgather';
  if (o.algorithm.startsWith('ring')) {
    let lastReduce = null;
    if (rs) {
      for (let s = 0; s < N - 1; s++) {
        const id = nextId();
        const buf = `recv${s % 2}`;
        tx.push({ name: `rs_tx${s}`, src: `x_c${mod(c - s)}`, id, peer: ringPeers.next, after: lastReduce ? [lastReduce] : [] });
        rx.push({ name: `rs_rx${s}`, dst: buf, id, peer: ringPeers.prev, after: s >= 2 ? [`rs_red${s - 2}`] : [] });
        red.push({ name: `rs_red${s}`, read: buf, write: `x_c${mod(c - s - 1)}`, after: [`rs_rx${s}`] });
        lastReduce = `rs_red${s}`;
      }
    }
    if (ag) {
      // the chunk this chip starts the gather with: after the reduce-scatter its reduced chunk c + 1, else its own c
      const own = rs ? c + 1 : c;
      let lastRx = lastReduce;
      for (let s = 0; s < N - 1; s++) {
        const id = nextId();
        tx.push({ name: `ag_tx${s}`, src: `x_c${mod(own - s)}`, id, peer: ringPeers.next, after: lastRx ? [lastRx] : [] });
        // the chunk received in place was last read by the reduce-scatter's send of the same step; without a
        // reduce-scatter, at most two Rx jobs are set up ahead (an Rx job's timers run from its CTS, chip §10.3.1:
        // a job set up long before its data would time out)
        const after = rs ? [`rs_tx${s}`] : s >= 2 ? [`ag_rx${s - 2}`] : [];
        rx.push({ name: `ag_rx${s}`, dst: `x_c${mod(own - s - 1)}`, id, peer: ringPeers.prev, after });
        lastRx = `ag_rx${s}`;
      }
    }
  } else {
    // Halving-doubling (recursive halving reduce-scatter, recursive doubling all-gather), N = 2^m chunks: at step k
    // the partner is c XOR 2^(m-1-k); the chip keeps the half of its range that holds its own index and sends the
    // other half, chunk by chunk (one RDMA job per chunk). After m steps chip c owns the reduced chunk c.
    const m = Math.log2(N);
    let lo = 0;
    let hi = N;
    const ranges = [];
    const lastTouch = new Map(); // chunk -> the last trip that wrote it (reduce or rx)
    const lastSend = new Map(); // chunk -> the last tx that read it
    let rb = 0;
    const recvFree = [null, null];
    for (let k = 0; k < m; k++) {
      const bit = 1 << (m - 1 - k);
      const peer = 1 + (m - 1 - k);
      const mid = (lo + hi) / 2;
      const keepLow = (c & bit) === 0;
      const [kLo, kHi, sLo, sHi] = keepLow ? [lo, mid, mid, hi] : [mid, hi, lo, mid];
      ranges.push([lo, hi]);
      for (let j = sLo; j < sHi; j++) {
        const id = nextId();
        tx.push({ name: `hd_tx${k}_${j}`, src: `x_c${j}`, id, peer, after: lastTouch.has(j) ? [lastTouch.get(j)] : [] });
        lastSend.set(j, `hd_tx${k}_${j}`);
      }
      for (let j = kLo; j < kHi; j++) {
        const buf = `recv${rb % 2}`;
        const rxName = `hd_rx${k}_${j}`;
        const redName = `hd_red${k}_${j}`;
        rx.push({ name: rxName, dst: buf, id: -1 /* paired in pairHdIds */, peer, chunk: j, after: recvFree[rb % 2] ? [recvFree[rb % 2]] : [] });
        red.push({ name: redName, read: buf, write: `x_c${j}`, after: [rxName, ...(lastTouch.has(j) ? [lastTouch.get(j)] : [])] });
        recvFree[rb % 2] = redName;
        lastTouch.set(j, redName);
        rb++;
      }
      lo = kLo;
      hi = kHi;
    }
    for (let k = m - 1; k >= 0; k--) {
      const [rlo, rhi] = ranges[k];
      const peer = 1 + (m - 1 - k);
      // send what we own now [lo, hi); receive the partner's half of [rlo, rhi) in place
      for (let j = lo; j < hi; j++) {
        tx.push({ name: `hg_tx${k}_${j}`, src: `x_c${j}`, id: nextId(), peer, after: lastTouch.has(j) ? [lastTouch.get(j)] : [] });
        lastSend.set(j, `hg_tx${k}_${j}`);
      }
      for (let j = rlo; j < rhi; j++) {
        if (j >= lo && j < hi) continue;
        const after = [lastSend.get(j), lastTouch.get(j)].filter(Boolean);
        rx.push({ name: `hg_rx${k}_${j}`, dst: `x_c${j}`, id: -1, peer, chunk: j, after: [...new Set(after)] });
        lastTouch.set(j, `hg_rx${k}_${j}`);
      }
      lo = rlo;
      hi = rhi;
    }
  }
  return { tx, rx, red };
}

/** Halving-doubling job ids: chip c's Rx of a chunk pairs with the partner's Tx of that chunk in the same step. */
function pairHdIds(o, plans) {
  for (let c = 0; c < o.chips; c++) {
    for (const r of plans[c].rx) {
      if (r.id !== -1) continue;
      const m = /^(hd|hg)_rx(\d+)_(\d+)$/.exec(r.name);
      const [, ph, k, j] = m;
      const bit = 1 << (Math.log2(o.chips) - 1 - Number(k));
      const partner = c ^ bit;
      const t = plans[partner].tx.find((x) => x.name === `${ph}_tx${k}_${j}`);
      if (!t) throw new Error(`internal: no Tx for ${r.name} on chip ${partner}`);
      r.id = t.id;
    }
  }
}

function pasm(o) {
  // one loop of up to 4096 rows (12-bit numloops, seq §2.1); larger chunks are refused in parseArgs
  const loops = [o.rows];
  return `# InMemAdd reduction of one received chunk (generated by scripts/gen-collective.mjs; chip §7.4.1):
# AMEM Read streams ${o.rows} rows of 128 RFP16 values (256 bytes: one 16-bit access of 16 partitions, chip §7.3.1,
# with the identity partition switches on both sides, so the swizzle of the read and of the write cancel) from the
# receive buffer (the trip's read base) to AMEM Write, which adds each into the chunk at the trip's write base
# (RMW_Add, rmw_rd_addr_offset 0; the add is RFP16's, chip §7.4).
.program red_rd amem_read {
  loop i0 ${loops[0]} {
    Read_SRAM tgt_fifo=AMEM_write data_type=Recogni_FP16 iter_stride[i0]=16
  }
}

.program red_wr amem_write {
  loop i0 ${loops[0]} {
    RMW_Add src_fifo=AMEM_read data_type=Recogni_FP16 rmw_rd_addr_offset=0 iter_stride[i0]=16
  }
}
`;
}

function linkScript(o, c, p) {
  const N = o.chips;
  const L = [];
  L.push(`/* Chip ${c} of ${N}: ${o.algorithm}, ${N} chunks of ${o.rows} rows (generated by scripts/gen-collective.mjs). */`);
  L.push('memory amem0 { space = amem; cluster = 0; view = hashed; origin = 0; length = 64M; }');
  for (let j = 0; j < N; j++) {
    const data = o.data === 'none' ? 'zero = true;' : `data = "chip${c}_x_c${j}.npy";`;
    L.push(`tensor x_c${j} { format = RFP16; eb = -15; shape = [${o.rows}, 128]; region = amem0; align = 128; ${data} }`);
  }
  if (p.red.length) {
    L.push(`tensor recv0 { format = RFP16; eb = -15; shape = [${o.rows}, 128]; region = amem0; align = 128; zero = true; }`);
    L.push(`tensor recv1 { format = RFP16; eb = -15; shape = [${o.rows}, 128]; region = amem0; align = 128; zero = true; }`);
  }
  const voq = (peer) => 4 * peer;
  // the Rx job's messages go back to the chip that sends to us: ring: our "prev" peer is group 2; hd: symmetric
  const msgPeer = (peer) => (o.algorithm.startsWith('ring') ? (peer === 2 ? 2 : 1) : peer);
  L.push('queue rdma_tx0 { cluster = 0;');
  for (const t of p.tx) L.push(`  trip ${t.name} { src = ${t.src}; tjid = ${t.id}; rjid = ${t.id}; dest_voq = ${voq(t.peer)}; page_size_words = ${o.pageSizeWords}; }`);
  L.push('}');
  L.push('queue rdma_rx0 { cluster = 0;');
  for (const r of p.rx) L.push(`  trip ${r.name} { dst = ${r.dst}; tjid = ${r.id}; rjid = ${r.id}; msg_voq = ${voq(msgPeer(r.peer))}; }`);
  L.push('}');
  if (p.red.length) {
    L.push('queue uie0 { cluster = 0;');
    for (const r of p.red) L.push(`  trip ${r.name} { amem_read = red_rd; amem_write = red_wr; read = ${r.read}; write = ${r.write}; rmw_source = ${r.write}; }`);
    L.push('}');
  }
  for (const t of [...p.tx, ...p.rx, ...p.red]) {
    const after = t.after.filter(Boolean);
    if (after.length) L.push(`${t.name} after ${[...new Set(after)].join(', ')};`);
  }
  return L.join('\n') + '\n';
}

/** The peers of chip c: group g -> chip. */
export function peers(o, c) {
  const N = o.chips;
  if (o.algorithm.startsWith('ring')) return { 1: (c + 1) % N, 2: (c + N - 1) % N };
  const m = Math.log2(N);
  const out = {};
  for (let k = 0; k < m; k++) out[1 + (m - 1 - k)] = c ^ (1 << (m - 1 - k));
  return out;
}

export function generate(o) {
  const out = resolve(o.out);
  // one level at a time: node's recursive mkdir never returns under /proc (packages/container makeDirs)
  makeDirs(out);
  writeFileSync(join(out, 'collective.pasm'), pasm(o));
  const plans = [];
  for (let c = 0; c < o.chips; c++) plans.push(plan(o, c));
  if (o.algorithm === 'hd-allreduce') pairHdIds(o, plans);
  const inputs = [];
  for (let c = 0; c < o.chips; c++) {
    writeFileSync(join(out, `chip${c}.ld`), linkScript(o, c, plans[c]));
    const chunks = [];
    for (let j = 0; j < o.chips; j++) {
      const v = chunkValues(o, c, j);
      chunks.push(v);
      if (o.data !== 'none') writeFileSync(join(out, `chip${c}_x_c${j}.npy`), npyF32(v, o.rows));
    }
    inputs.push(chunks);
  }
  // docs/system.md: the images and the VOQ-map rules (group g -> peer g of every chip, cluster 0)
  const voqMap = o.algorithm.startsWith('ring')
    ? [
        { group: 1, chip: '+1', cluster: 0, doc: 'peer 1: the next chip of the ring' },
        { group: 2, chip: '-1', cluster: 0, doc: 'peer 2: the previous chip of the ring' },
      ]
    : Array.from({ length: o.chips }, (_, c) => Object.entries(peers(o, c)).map(([g, chip]) => ({ group: Number(g), chip, cluster: 0, on: c }))).flat();
  const system = {
    doc: `${o.algorithm} on ${o.chips} chips, ${o.chips} chunks of ${o.rows} x 128 RFP16 (generated by scripts/gen-collective.mjs)`,
    chips: o.chips,
    images: Array.from({ length: o.chips }, (_, c) => `chip${c}.pimg`),
    voq_map: voqMap,
  };
  writeFileSync(join(out, 'system.json'), JSON.stringify(system, null, 2) + '\n');
  return { out, plans, inputs };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const o = parseArgs(process.argv.slice(2));
  let out;
  try {
    ({ out } = generate(o));
  } catch (e) {
    // an --out that cannot be made or written (a file, /dev/null, no permission): an input error, no stack trace
    process.stderr.write(`${renderDiagnostics([diagError('IO0002', `cannot write to ${o.out}: ${e && e.code === 'ENOTDIR' ? 'not a directory' : writeErrorReason(e)}`)], 'human', { color: false })}\n`);
    process.exit(1);
  }
  const cmds = [
    `pyxis-as ${out}/collective.pasm -o ${out}/collective.pobj`,
    ...Array.from({ length: o.chips }, (_, c) => `pyxis-ld ${out}/chip${c}.ld ${out}/collective.pobj -o ${out}/chip${c}.pimg`),
    `pyxis-ld ${out}/system.json -o ${out}/system.psys`,
    `pyxis-sim run ${out}/system.psys --stats -`,
  ];
  process.stdout.write(`wrote ${o.algorithm} for ${o.chips} chips to ${out}\n${cmds.join('\n')}\n`);
}
