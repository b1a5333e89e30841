/**
 * @pyxis/formats: bit-exact Pyxis (RFP8/16, LNS, MNS, Int16, Int32/UInt32 index tables), OCP FP8, IEEE FP16,
 * NeuronCore (FP32, BF16, TF32, FP8) and systolic fixed-point number formats.
 * See docs/formats.md.
 */
export type { EncodeOptions, FormatDescriptor, FormatFamily, FormatName, ReservedCode, Rounding } from './types.js';
export { FormatErrorCode, checkEbAdj } from './errors.js';
export { pow2, rne, rneDiv, rneShift } from './bits.js';
export {
  RFP8,
  RFP16,
  LnsI4F3,
  LnsI5F3,
  LnsI5F10,
  MNS13,
  MNS18,
  Int16,
  Int32,
  UInt32,
  OCP_E4M3,
  OCP_E5M2,
  IEEE_FP16,
  FP32,
  BF16,
  TF32,
  FP8_E4M3,
  FP8_E5M2,
  FP8BP4,
  FP16BP8,
  FP18BP10,
  FP32BP16,
  FP32B16,
  MnsFormat,
  FixedPoint,
  PyxisFloat,
  PyxisLns,
  IeeeLike,
} from './formats.js';
export { formats, formatAliases, formatNames, getFormat, isFormatName } from './registry.js';
export * from './hw.js';
export * from './tables.js';
export { encodeArray, decodeArray, convertArray, ebForRange, type ConvertOptions, type DecodeOptions } from './arrays.js';
export { mnsAccumulate, mnsAdd, mnsConvert, fixedAdd, fixedMul, rfpAdd, rfpSub, rfpMul } from './ops.js';
export { mnsGrid, mnsRoundValue, mnsRoundWith, twoSum } from './mnsRound.js';
export { rfp16Encode } from './rfp16Fast.js';
export { fixedSaturate, fixedMac, fixedMacRaw, fixedMatVec, fixedMatVec16, encodeFixedInt32, decodeFixedInt32 } from './fixed.js';
