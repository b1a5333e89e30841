/** Diagnostic codes of the system and its wire (fsys): SIM0700-SIM0749 (simulator), LD0900-LD0949 (system linker). */
export const FabricCodes = {
  /** grammars/pyxis/fabric.json or a system's fabric override is invalid. */
  badFabricConfig: 'SIM0700',
  /** A page names a VPFE that no chip/cluster of the system is (§10.2). */
  unroutable: 'SIM0701',
  /** A bad --fabric-faults SPEC (usage). */
  badFaultSpec: 'SIM0702',
  /** An RDMA job of the system ended in Job Failed and no host action recovered it (§10.7.1.2, §10.8.1.2). */
  jobFailedUnrecovered: 'SIM0720',
  /** Warning: the fabric RTT is not far enough below the adapter's timers (rttCheck.ts; audit range SIM0900-0909). */
  rttVsTimers: 'SIM0900',
  /** The system description is invalid (JSON path). */
  badSystem: 'LD0900',
  /** Pyxis_VOQ_to_VPFE_map entry with VPFE[1:0] == 3 or out of range (§10.2). */
  badVpfe: 'LD0901',
  /** A Tx job's VOQ names no chip/cluster of the system (§10.2). */
  voqNoTarget: 'LD0902',
  /** A TJID/RJID pair used twice at once (§10.4). */
  jobIdReuse: 'LD0903',
  /** Tx/Rx NumWords disagree between the two chips (§10.3). */
  numWordsMismatch: 'LD0904',
  /** PageSizeWords outside [32, 127] (§11.4.6). */
  badPageSize: 'LD0905',
  /** Datagram size outside [1, 16256] (§10.6). */
  badDatagramSize: 'LD0906',
  /** Warning: an RDMA job whose partner job (same TJID / RJID, VOQs naming each other) no image enqueues (§10.3.1). */
  noPartnerJob: 'LD0960',
  /** A system container (.psys) whose manifest is missing or broken (read back by pyxis-sim). */
  badImage: 'LD0907',
} as const;
