/**
 * Diagnostic codes of the container and tensor-file readers/writers.
 * CT = .pobj/.pimg containers, TF = tensor files (.npy, .safetensors).
 */
export const ContainerCodes = {
  badMagic: 'CT0001',
  badVersion: 'CT0002',
  truncated: 'CT0003',
  outOfRange: 'CT0004',
  overlap: 'CT0005',
  misaligned: 'CT0006',
  badCount: 'CT0007',
  badEnum: 'CT0008',
  badString: 'CT0009',
  badMetadata: 'CT0010',
  badNumber: 'CT0011',
  reservedSet: 'CT0012',
  trailing: 'CT0013',
  badIndex: 'CT0014',
  /** Metadata JSON that breaks the target's schema for it (JSON path in the message). */
  badMetadataField: 'CT0015',
  /** The in-memory model handed to the writer is not representable. */
  badModel: 'CT0100',
} as const;

export const TensorCodes = {
  badMagic: 'TF0001',
  badVersion: 'TF0002',
  truncated: 'TF0003',
  badHeader: 'TF0004',
  unsupportedDtype: 'TF0005',
  fortranOrder: 'TF0006',
  bigEndian: 'TF0007',
  badShape: 'TF0008',
  sizeMismatch: 'TF0009',
  badOffsets: 'TF0010',
  trailing: 'TF0011',
  badTensor: 'TF0100',
} as const;

/** File-system problems with the files a tool reads or writes (shared by every CLI). */
export const FileCodes = {
  /** An input file is missing or unreadable. */
  cannotRead: 'IO0001',
  /** An output file cannot be written (missing directory, a directory, no permission, disk full). */
  cannotWrite: 'IO0002',
  /** An output is the same file as an input or as another output. */
  sameFile: 'IO0003',
} as const;
