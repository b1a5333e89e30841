/**
 * Chip-scale sample: a ResNet-style basic block, y = conv3x3(conv3x3(x)) + x, on a batch of images over all 48 UIEs
 * (docs/generators.md "ResNet-style block"): two generated 3x3 convolutions (stride 1, pad 1, 16 channels, images
 * [16, H, 128] streamed from HBM), the second with the residual add by InMemAdd. As in the transformer sample the
 * stages take their own seeded inputs (conv1's RFP16 output is not converted back to RFP8 for conv2) and the ReLU
 * between them is not applied; the figures are those of the block's work at its shapes.
 */
import { conv3x3 } from './conv.js';
import { requireInt } from './errors.js';
import type { Composite } from './transformer.js';

export interface ResnetParams {
  images?: number;
  height?: number;
  clusters?: number[];
  uies?: number;
  seed?: number;
}

export function resnetBlock(p: ResnetParams): Composite {
  const N = requireInt('images', p.images ?? 96, 1, 65536);
  const H = p.height ?? 32;
  const cl = p.clusters ?? [0, 1, 2, 3];
  const u = p.uies ?? 12;
  const seed = p.seed ?? 1;
  const common = { images: N, cin: 16, height: H, clusters: cl, uies: u };
  return {
    name: 'resnet',
    stages: [
      { label: `conv1: ${N} x [16, ${H}, 128] 3x3 -> 16`, kernel: conv3x3({ name: 'conv1', seed, ...common }) },
      { label: `conv2: 3x3 -> 16, + residual`, kernel: conv3x3({ name: 'conv2', residual: true, seed: seed + 1, ...common }) },
    ],
    notes: [
      `ResNet-style block: ${N} images [16, ${H}, 128], two 3x3 convolutions (stride 1, pad 1, FP8) and the residual add, on ${cl.length} cluster(s) x ${u} UIE(s); stages run one after the other`,
      'NOT a chained block: each convolution takes its own seeded inputs and the ReLU between them is not applied (docs/generators.md "ResNet-style block")',
    ],
  };
}
