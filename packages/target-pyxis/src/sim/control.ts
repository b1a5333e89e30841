/**
 * Cluster control plane: the Descriptor Prefetch Engine (chip §12.5, dpe.ts) feeding per-engine shallow prefetch
 * queues from the rings of lists (§11.5.1), the descriptors it decodes (§11.4, descriptors.ts), and the Trip Manager
 * (§11.3, tripManager.ts): wait(barrier) for the trip at the head of each prefetch queue, launch it on its engine when
 * released, and notify the notify_list when the engine reports completion. This module is the control plane's entry
 * point (the package index re-exports it); code inside the simulator imports the module it uses.
 */
export { decodeTrip, descriptorBytes, descriptorTable } from './descriptors.js';
export { DescriptorPrefetchEngine } from './dpe.js';
export { TripManager, type NotifySender, type TripObserver } from './tripManager.js';
