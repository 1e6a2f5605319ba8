/*
 * What the fuzzers' own readings of spec/ovni/models.def need to expand it
 * (the table is macros, no code): each field type's size and each model's
 * letter. Each reader defines F, S, A, NOFIELDS, JUMBO and OLD as it wants
 * the fields and flags, then includes the table. Depends on nothing, so
 * that the mutator's shared object for AFL++ can use it too.
 */
#ifndef TC_FUZZ_OVNI_SPEC_TABLE_H
#define TC_FUZZ_OVNI_SPEC_TABLE_H

#define OVS_SIZE_u8 1
#define OVS_SIZE_u16 2
#define OVS_SIZE_u32 4
#define OVS_SIZE_u64 8
#define OVS_SIZE_i8 1
#define OVS_SIZE_i16 2
#define OVS_SIZE_i32 4
#define OVS_SIZE_i64 8

#define OVS_LETTER_OVNI 'O'
#define OVS_LETTER_NOSV 'V'
#define OVS_LETTER_NANOS6 '6'
#define OVS_LETTER_NODES 'D'
#define OVS_LETTER_TAMPI 'T'
#define OVS_LETTER_MPI 'M'
#define OVS_LETTER_OPENMP 'P'
#define OVS_LETTER_KERNEL 'K'

#endif
