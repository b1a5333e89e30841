export * from './chipPartition.js';
export * from './threadedSystem.js';
