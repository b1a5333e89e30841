/** The kernel kinds of `pyxis-gen` and their command-line options (docs/generators.md). */
import { didYouMean } from '@pyxis/diagnostics';
import { GenError } from './errors.js';
import { EPILOGUES, gemm } from './gemm.js';
import type { GenKernel } from './kernel.js';
import { ROW_OPS, rows, type RowOp } from './rows.js';
import { transformer } from './transformer.js';
import { conv3x3 } from './conv.js';
import { resnetBlock } from './resnet.js';
import { resnetDownBlock } from './resnetDown.js';
import { attention } from './attention.js';
import { attentionSeq } from './attnSeq.js';
import { WEIGHTS_1X1, conv1x1, type Weights1x1 } from './conv1x1.js';

type Values = Record<string, string | boolean | undefined>;
interface KindSpec {
  options: Record<string, { type: 'string' | 'boolean' }>;
  make(v: Values): GenKernel;
}

/** A name option (`--epilogue`, `--op`, `--weights`): one of `choices` (GEN0006, exit 2, with a did-you-mean), or `dflt`. */
function choiceOpt<T extends string>(v: Values, key: string, choices: readonly T[], dflt: T): T {
  const s = v[key];
  if (s === undefined) return dflt;
  if (typeof s === 'string' && (choices as readonly string[]).includes(s)) return s as T;
  throw new GenError('GEN0006', key, `must be one of ${choices.join(', ')} (got ${String(s)})`, 2, typeof s === 'string' ? didYouMean(s, choices) : []);
}

/** An integer option (GEN0001 with exit 2 when it is not a number). */
export function intOpt(v: Values, key: string, dflt: number): number {
  const s = v[key];
  if (s === undefined) return dflt;
  // a decimal numeral with an integral value (`1e9` is the size 10^9, refused by its range check); not `0x10`,
  // `0b1`, `+8`, ` 8` or `Infinity`, which Number() would also take
  const n = Number(s);
  if (typeof s !== 'string' || !/^-?\d+(\.\d*)?([eE][+-]?\d+)?$/.test(s) || !Number.isInteger(n)) throw new GenError('GEN0001', key, `must be a decimal integer (got "${String(s)}")`, 2);
  // beyond 2^53 the value read is not the one written (99999999999999999999 reads as 10^20): the range checks would
  // echo another number
  if (!Number.isSafeInteger(n)) throw new GenError('GEN0001', key, `must be a decimal integer of at most 2^53 - 1 (got "${s}")`, 2);
  return n;
}

/** `--seed S`: 0..2^32-1, the state of the inputs' mulberry32 generator (inputs.ts), as gen-collective.mjs. */
export function seedOpt(v: Values): number {
  const s = intOpt(v, 'seed', 1);
  if (s < 0 || s > 0xffffffff) throw new GenError('GEN0002', 'seed', `must be in 0..4294967295 (got ${s}; the 32-bit state of the inputs' generator)`);
  return s;
}

/** `--clusters 0,1,2,3` (or a count `--clusters 4` = 0..3 when given as `all`/a single number N > 1 prefixed by `n`). */
export function clusterOpt(v: Values): number[] {
  const s = v['clusters'];
  if (s === undefined) return [0];
  if (typeof s !== 'string' || !/^\d+(,\d+)*$/.test(s)) throw new GenError('GEN0001', 'clusters', `must be a comma-separated list of cluster ids, e.g. 0,1,2,3 (got "${String(s)}")`, 2);
  return s.split(',').map(Number);
}

const common = { name: { type: 'string' }, seed: { type: 'string' }, clusters: { type: 'string' }, uies: { type: 'string' } } as const;

export const KINDS: Record<string, KindSpec> = {
  gemm: {
    options: { ...common, m: { type: 'string' }, k: { type: 'string' }, n: { type: 'string' }, dtype: { type: 'string' }, transposed: { type: 'boolean' }, epilogue: { type: 'string' }, residual: { type: 'boolean' }, batch: { type: 'string' }, 'amem-budget': { type: 'string' } },
    make: (v) => {
      const epi = choiceOpt(v, 'epilogue', EPILOGUES, 'none');
      return gemm({
        name: v['name'] as string | undefined,
        m: intOpt(v, 'm', 128),
        k: intOpt(v, 'k', 256),
        n: intOpt(v, 'n', 128),
        dtype: choiceOpt(v, 'dtype', ['fp8', 'fp16'] as const, 'fp8'),
        transposed: !!v['transposed'],
        epilogue: epi,
        residual: !!v['residual'],
        batch: intOpt(v, 'batch', 1),
        ...(v['amem-budget'] !== undefined ? { amemBudget: intOpt(v, 'amem-budget', 0) } : {}),
        clusters: clusterOpt(v),
        uies: intOpt(v, 'uies', 1),
        seed: seedOpt(v),
      });
    },
  },
  rows: {
    options: { ...common, op: { type: 'string' }, rows: { type: 'string' } },
    make: (v) => {
      const op = choiceOpt<RowOp>(v, 'op', ROW_OPS, 'softmax');
      return rows({ name: v['name'] as string | undefined, op, rows: intOpt(v, 'rows', 128), clusters: clusterOpt(v), uies: intOpt(v, 'uies', 1), seed: seedOpt(v) });
    },
  },
  conv3x3: {
    options: { ...common, images: { type: 'string' }, cin: { type: 'string' }, height: { type: 'string' }, width: { type: 'string' }, stride: { type: 'string' }, residual: { type: 'boolean' } },
    make: (v) => conv3x3({ name: v['name'] as string | undefined, images: intOpt(v, 'images', 1), cin: intOpt(v, 'cin', 16), height: intOpt(v, 'height', 8), width: intOpt(v, 'width', 128), stride: intOpt(v, 'stride', 1), residual: !!v['residual'], clusters: clusterOpt(v), uies: intOpt(v, 'uies', 1), seed: seedOpt(v) }),
  },
  conv1x1: {
    options: { ...common, images: { type: 'string' }, cin: { type: 'string' }, rows: { type: 'string' }, stride: { type: 'string' }, weights: { type: 'string' }, residual: { type: 'boolean' } },
    make: (v) => {
      const wk = choiceOpt<Weights1x1>(v, 'weights', WEIGHTS_1X1, 'linear8');
      return conv1x1({ name: v['name'] as string | undefined, images: intOpt(v, 'images', 1), cin: intOpt(v, 'cin', 64), rows: intOpt(v, 'rows', 1), stride: intOpt(v, 'stride', 1), weights: wk, residual: !!v['residual'], clusters: clusterOpt(v), uies: intOpt(v, 'uies', 1), seed: seedOpt(v) });
    },
  },
  attention: {
    options: { ...common, tiles: { type: 'string' }, dk: { type: 'string' }, tokens: { type: 'string' }, seq: { type: 'string' }, heads: { type: 'string' } },
    make: (v) => {
      if (v['seq'] !== undefined || v['heads'] !== undefined) {
        const tileOpt = ['tiles', 'tokens'].find((o) => v[o] !== undefined);
        if (tileOpt) throw new GenError('GEN0007', tileOpt, '--seq / --heads [--dk] run heads over the whole sequence; --tiles and --tokens are the single-tile flow (one or the other)', 2);
        return attentionSeq({ name: v['name'] as string | undefined, seq: intOpt(v, 'seq', 512), heads: intOpt(v, 'heads', 1), dk: intOpt(v, 'dk', 128), clusters: clusterOpt(v), uies: intOpt(v, 'uies', 1), seed: seedOpt(v) });
      }
      return attention({ name: v['name'] as string | undefined, tiles: intOpt(v, 'tiles', 1), dk: intOpt(v, 'dk', 64), tokens: intOpt(v, 'tokens', 128), clusters: clusterOpt(v), uies: intOpt(v, 'uies', 1), seed: seedOpt(v) });
    },
  },
  transformer: {
    options: { clusters: { type: 'string' }, uies: { type: 'string' }, seed: { type: 'string' }, seq: { type: 'string' }, 'd-model': { type: 'string' }, heads: { type: 'string' }, ffn: { type: 'string' } },
    make: (v) =>
      transformer({ seq: intOpt(v, 'seq', 512), dModel: intOpt(v, 'd-model', 1024), heads: intOpt(v, 'heads', 8), ffn: intOpt(v, 'ffn', 4096), clusters: v['clusters'] === undefined ? [0, 1, 2, 3] : clusterOpt(v), uies: intOpt(v, 'uies', 12), seed: seedOpt(v) }),
  },
  resnet: {
    options: { ...common, images: { type: 'string' }, height: { type: 'string' }, downsample: { type: 'boolean' } },
    make: (v) => (v['downsample'] ? resnetDownBlock : resnetBlock)({ name: v['name'] as string | undefined, images: intOpt(v, 'images', 96), height: intOpt(v, 'height', 32), clusters: v['clusters'] === undefined ? [0, 1, 2, 3] : clusterOpt(v), uies: intOpt(v, 'uies', 12), seed: seedOpt(v) }),
  },
};

export const USAGE = `usage: pyxis-gen KIND --out DIR [options] [--run [--timing-only] [--max-cycles N]] [--json]

Writes KIND.pasm, KIND.ld, seeded .npy inputs, VPU LUTs and KIND.json (what it computes, layouts) to DIR
(docs/generators.md). --run also assembles, links and simulates it and prints the chip-level figures and the
error against float64; --timing-only skips the arithmetic (cycles only). --json prints one JSON object on stdout
instead (files, meta and, with --run, every figure; the text goes to stderr; keys: docs/generators.md "JSON output").

kinds and options:
  gemm  --m M --k K --n N [--batch B] [--dtype fp8|fp16] [--transposed] [--epilogue ${EPILOGUES.join('|')}] [--residual] [--amem-budget BYTES]
        C[M,N] = epilogue(A[M,K] x B[K,N]) (+ R), B independent GEMMs (attention heads); M a multiple of 8, K of 8 (FP8) / 4 (FP16), N any (partial tiles padded); --transposed: A stored as A^T;
        --amem-budget: AMEM bytes per cluster for the operands (default 63 MiB; smaller streams A and B through double buffers)
  rows  --op softmax|rmsnorm|layernorm --rows R
        rows of 128 FP16 values on the VPU (R a multiple of 64), streamed from HBM
  transformer [--seq 512] [--d-model 1024] [--heads 8] [--ffn 4096]   (defaults: all 4 clusters x 12 UIEs)
        a decoder layer chained in one image (LayerNorm, QKV, causal attention over all the tokens, Wo + x, LayerNorm,
        FFN with GELU, + y1); d-model / heads (d_k) a multiple of 8, <= 384; seq <= 768, d-model <= 4096 (docs/generators.md)
  conv3x3 --images N --cin C --height H [--width W] [--stride 1|2] [--residual]
        3x3 conv, pad 1, [C, H, 128] -> [16, H, 128] RFP16 (stride 1) or [16, H/2, 64] RFP8 (stride 2) per image;
        C a multiple of 16 (<= 224), H of 8 (<= 248); --residual (InMemAdd) with stride 1 only;
        --width W > 128 (a multiple of 16, stride 1): width-wise tiles of chip §17.2.1, H a multiple of 8 with H x W/8 <= 65535
  resnet [--images 96] [--height 32] [--downsample]   (defaults: all 4 clusters x 12 UIEs)
        a ResNet-style block chained on chip: ReLU(conv3x3(ReLU(conv3x3(x))) + x), 16 channels, [16, H, 128] RFP8 per image;
        --downsample: ReLU(conv3x3(ReLU(conv3x3_s2(x))) + conv1x1_s2(x)) -> [16, H/2, 64] (H 16, 32 or 48)
  conv1x1 --images N --cin C --rows P [--stride 1|2] [--weights linear8|linear16|compressed] [--residual]
        1x1 conv [C, P, 128] -> [128, P, 128] RFP16 (stride 1) or [128, P/2, 64] RFP8 (stride 2) per image with the
        linker's 1x1 database; C a multiple of 8 (4 for linear16), P <= 31 (even for stride 2); --residual with stride 1 only
  attention --tiles N --dk D [--tokens T]
        causal attention tiles of 128 tokens (T valid), head dimension D (a multiple of 8, <= 128), O^T per tile
  attention --seq S [--heads H] [--dk D]
        causal attention over S tokens (<= 768; padded to whole 128-token blocks) for H heads of d_k D (a multiple
        of 8, <= 384; default 128) (key blocks combined on the VPU)
size options left out take their defaults: gemm 128 x 256 x 128, rows softmax x 128, conv3x3 1 x 16 x 8,
conv1x1 1 x 64 x 1, attention 1 tile d_k 64 (--seq 512, 1 head, d_k 128)
common: --clusters 0,1,2,3 (default 0)  --uies U (UIEs per cluster, default 1)  --seed S (0..4294967295, default 1)
        --name NAME (not transformer, whose files have fixed names); each option at most once, integers in decimal
        --diagnostics-format human|json (how errors are printed on stderr, as pyxis-as/ld/sim)  --no-color
        --help, -h, help [KIND]: this text   --version, -V: the version

exit codes: 0 ok, 1 a parameter the hardware cannot run (GENxxxx, names the parameter and the limit), an output
that cannot be written (IO0002), a --run above its error bound or stopped (GEN0080-0082; with --json the object is
still printed, "ok": false), 2 usage, 3 internal`;
