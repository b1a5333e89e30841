export * from './chipPartition.js';
export * from './threadedSystem.js';
export * from './clusterPlan.js';
export * from './clusterPartition.js';
export * from './clusterMerge.js';
export * from './threadedChip.js';
