# validate --shard K/N and report merge over the whole case corpus (N = 1,
# 2, 3, 7: the merged reports of every kind are one run's, byte for byte),
# and the engine examples of docs/examples/ run on this machine: the Slurm
# array as a loop, GNU parallel with local jobs, the GitHub matrix's steps
# (docs/distributed.md).
.PHONY: check-shards
check-shards: $(TRACECHECK)
	@tests/shards/check-shards $(TRACECHECK)

CHECK_TARGETS += check-shards
