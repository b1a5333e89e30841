#!/usr/bin/env node
// A large Pyxis source from a realistic instruction mix (the programs of samples/pyxis/*.pasm: AMEM read and
// write, the weights path, the grid sequencers, the VPU side with VPU programs; nested loops, masks, constant
// expressions, comments, line continuations), repeated with fresh program names until `lines` lines.
// Used by scripts/bench-asm.mjs; as a command: node scripts/gen-pasm.mjs LINES [OUT.pasm] (stdout without OUT).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One unit of programs, all names suffixed with `n` (about 100 lines). */
function unit(n) {
  const s = n % 64;
  return [
    `# ---- unit ${n}: a fused linear layer (see samples/pyxis/matmul_bias_relu.pasm)`,
    `.program rd${n} amem_read {`,
    `  Read_Const rd_const_value=0 num_logical_ptns=8`,
    `  loop i0 (ROWS + 7) / 8 {                  # row groups`,
    `    loop i1 10 final ROWS - 16 when [i0] post_final {`,
    `      Read_SRAM data_type=Recogni_FP8 amem_addr_offset=BASE + ${s} iter_stride[i0]=8 iter_stride[i1]=1`,
    `      Read_SRAM_with_ReLU amem_addr_offset=BASE iter_stride[i1]=1 pad_row_iter_mask=[i0, i1] start_row_pad=1`,
    `      loop i2 4 { Read_SRAM num_logical_ptns=4 iter_stride[i2]=2 }`,
    `    }`,
    `    Read_SRAM tgt_fifo=Vbuffer eb_adj=-3 rpsw_config_iter_id=i0`,
    `  }`,
    `  Nop`,
    `}`,
    `.program bl${n} amem_read {`,
    `  Read_SRAM data_type=Recogni_FP16 tgt_fifo=Vbuffer rpsw_config_vld=1 rpsw_config_idx_base=0`,
    `}`,
    `.program bi${n} sb2vb {`,
    `  WR_VLD wr_tile_idx=1 src_select=AMEM_FIFO scratchpad_mode=1 scratchpad_count_incr_amt=0 wr_addr_base=0`,
    `}`,
    `.program wr${n} amem_weights_read {`,
    `  loop i0 KBLK {`,
    `    loop i1 8 {`,
    `      loop i2 2 {`,
    `        loop i3 8 {`,
    `          Read_SRAM wdc_type=Uncompressed iter_stride[i0]=8 iter_stride[i1]=ROW iter_stride[i2]=8*ROW iter_stride[i3]=16*ROW`,
    `        }`,
    `      }`,
    `    }`,
    `  }`,
    `}`,
    `.program wdp${n} wdp {`,
    `  loop i0 KBLK {`,
    `    loop i1 8 {`,
    `      loop i2 2 {`,
    `        loop i3 8 {`,
    `          WR_HBUF hbuf_wr_control=LD_1ROW_16B log2_ptns_per_hlane=3 hlane_iter_id=i3 grip_iter_id=i2 \\`,
    `                  dsbl_mapping_corr=0 eb_adj=0 lin2log_config_vld=1 \\`,
    `                  hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 hbuf_block_iter_mask=[i1, i2, i3] \\`,
    `                  hbuf_stride_dim1=16 hbuf_stride_iter_id_dim1=i1`,
    `        }`,
    `      }`,
    `    }`,
    `  }`,
    `}`,
    `.program gh${n} gh {`,
    `  loop i0 KBLK {`,
    `    loop i1 16 {`,
    `      loop i2 8 {`,
    `        HBUF_RD_VLD hbuf_rd_cmd=RD_1X1_MATMUL_FP8 end_grid_row_idx=15 hbuf_block_size=64 hbuf_block_start_en=1 hbuf_block_end_en=1 \\`,
    `                    hbuf_block_iter_mask=[i1, i2] hbuf_stride_dim1=8 hbuf_stride_dim2=128 \\`,
    `                    hbuf_stride_iter_id_dim1=i1 hbuf_stride_iter_id_dim2=i2`,
    `      }`,
    `    }`,
    `  }`,
    `}`,
    `.program gv${n} gv {`,
    `  loop i0 K / 8 {`,
    `    loop i1 8 {`,
    `      Read_AMEM_FIFO conv3x3_mode=0 staging_start_iter_mask=[i1] dsbl_mapping_corr=0 fbits_truncate_amt=0 eb_adj=0`,
    `    }`,
    `  }`,
    `}`,
    `.program gx${n} gx {`,
    `  Exec_Config conv3x3_mode=0 end_grid_row_idx=15 log2_active_ptns=3 odd_col_exec_en=1 even_col_exec_en=1`,
    `  loop i0 K / 8 {`,
    `    loop i1 8 {`,
    `      Exec_Valid conv3x3_mode=0 accum_idx_iter_id=i1 front_staging_done_iter_mask=[i1] zero_accum_iter_mask=[i0] \\`,
    `                 split_accum_iter_mask=[i0, i1] wb_kick_iter_mask=[i0, i1]`,
    `    }`,
    `  }`,
    `}`,
    `.program gwb${n} gwb {`,
    `  loop i0 16 {`,
    `    Read_WBA tgt_fifo=VPU diagonal_mask_mode=Disabled eb_adj=7 grid_row_offset=0 grid_row_iter_id=i0 wb_done_iter_mask=[i0]`,
    `  }`,
    `}`,
    `.vpu lb${n} {`,
    `  MOV rd=r15 src1_sel=IN_FIFO wr_gpr_en=1 in_fifo_pop=1`,
    `}`,
    `.vpu br${n} {`,
    `  ADD rd=r1 src1_sel=IN_FIFO rs2=r15 src2_sel=GPR wr_gpr_en=1 in_fifo_pop=1`,
    `  RELU rd=r2 rs1=r1 src1_sel=GPR out_fifo_push=1`,
    `  MUL rd=r3 rs1=r2 src2_sel=IMM imm=0x3c00 wr_gpr_en=1 out_fifo_push=1 cntr_ctrl=CNTR_CTRL_INCR`,
    `}`,
    `.program vi${n} vi {`,
    `  Generate_VPU_Program vpv_pgm_start_addr=lb${n}`,
    `  loop i0 128 {`,
    `    Generate_VPU_Program vpv_pgm_start_addr=br${n} counter_zero_iter_mask=[i0]`,
    `  }`,
    `}`,
    `.program feed${n} vb2vpu {`,
    `  RD_VLD rd_tile_idx=1 scratchpad_mode=1 scratchpad_count_decr=0 rd_addr_base=0`,
    `  loop i0 128 {`,
    `    RD_VLD rd_tile_idx=0`,
    `  }`,
    `}`,
    `.program out${n} vpu2vb {`,
    `  loop i0 128 {`,
    `    WR_VLD wr_tile_idx=2`,
    `  }`,
    `}`,
    `.program drain${n} vb2sb {`,
    `  loop i0 128 {`,
    `    RD_VLD rd_tile_idx=2 tgt_select=AMEM_FIFO`,
    `  }`,
    `}`,
    `.program wrc${n} amem_write {`,
    `  loop i0 128 {`,
    `    Write src_fifo=Vbuffer data_type=Recogni_FP16 iter_stride[i0]=16 wpsw_config_vld=1 wpsw_config_idx_base=0`,
    `  }`,
    `}`,
    ``,
  ];
}

const HEADER = ['# generated benchmark source (scripts/gen-pasm.mjs)', '.const BASE = 0x40', '.const ROWS = 22', '.const K = 256', '.const KBLK = K / 128', '.const ROW = K / 16', ''];

/** The source text, at least `lines` lines (whole units). */
export function generatePasm(lines) {
  const parts = [...HEADER];
  for (let n = 0; parts.length < lines; n++) parts.push(...unit(n));
  return { text: parts.join('\n') + '\n', lines: parts.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { text } = generatePasm(Number(process.argv[2] ?? 100_000));
  if (process.argv[3]) writeFileSync(process.argv[3], text);
  else process.stdout.write(text);
}
