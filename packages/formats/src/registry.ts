/** The format registry: `formats`, `getFormat(name)` (chip §4; spec spellings accepted as aliases). */
import { didYouMean } from '@pyxis/diagnostics';
import { FormatErrorCode, fail } from './errors.js';
import * as F from './formats.js';
import type { FormatDescriptor, FormatName } from './types.js';

export const formats: Readonly<Record<FormatName, FormatDescriptor>> = Object.freeze({
  RFP8: F.RFP8,
  RFP16: F.RFP16,
  LnsI4F3: F.LnsI4F3,
  LnsI5F3: F.LnsI5F3,
  LnsI5F10: F.LnsI5F10,
  MNS13: F.MNS13,
  MNS18: F.MNS18,
  Int16: F.Int16,
  Int32: F.Int32,
  UInt32: F.UInt32,
  OCP_E4M3: F.OCP_E4M3,
  OCP_E5M2: F.OCP_E5M2,
  IEEE_FP16: F.IEEE_FP16,
  FP32: F.FP32,
  BF16: F.BF16,
  TF32: F.TF32,
  FP8_E4M3: F.FP8_E4M3,
  FP8_E5M2: F.FP8_E5M2,
  FP8BP4: F.FP8BP4,
  FP16BP8: F.FP16BP8,
  FP18BP10: F.FP18BP10,
  FP32BP16: F.FP32BP16,
});

/** Spellings used by the specs, mapped to registry names. */
export const formatAliases: Readonly<Record<string, FormatName>> = Object.freeze({
  'MNS5.1.13': 'MNS13',
  'MNS5.1.18': 'MNS18',
  'MNS E5M18': 'MNS18',
  LNS16: 'LnsI5F10',
  'LNS5.3': 'LnsI5F3',
  OFP8_E4M3: 'OCP_E4M3',
  OFP8_E5M2: 'OCP_E5M2',
  OFP16: 'IEEE_FP16',
  FP32B16: 'FP32BP16',
});

export const formatNames = Object.keys(formats) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.prototype.hasOwnProperty.call(formats, name);
}

/** Look a format up by registry name or spec alias; unknown names are a FMT0001 diagnostic. */
export function getFormat(name: string | FormatDescriptor): FormatDescriptor {
  if (typeof name !== 'string') return name;
  if (isFormatName(name)) return formats[name];
  const alias = formatAliases[name];
  if (alias) return formats[alias];
  return fail(
    FormatErrorCode.unknownFormat,
    `unknown number format \`${name}\``,
    undefined,
    undefined,
    didYouMean(name, [...formatNames, ...Object.keys(formatAliases)]),
  );
}
