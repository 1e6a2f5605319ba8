# Debian packages (Debian 12). `make deps` installs them; `make check` does it
# by itself when run as root and something is missing.
DEB_PACKAGES := make clang llvm llvm-dev libclang-rt-dev afl++ \
    libcjson-dev libcunit1-dev zlib1g-dev libbz2-dev libzstd-dev \
    gzip bzip2 zstd python3 python3-jsonschema time \
    libyajl-dev jq chromium \
    binutils pkgconf groff-base \
    libxml2-utils
# libyajl-dev and jq are for `make bench` only (the JSON layer comparison and
# the DCFG baselines, docs/benchmarks.md); the library does not link yajl.
# chromium (headless) is for make check's test of the HTML conformance matrix
# (check-conformance-html): the page's script is run, not only its markup read.
# binutils (nm, objcopy, readelf), pkgconf and groff-base are for `make
# install` (the static library's symbol table) and check-install (the
# exported symbols, the example built with pkg-config, the man page lint).
# libxml2-utils (xmllint) reads back the JUnit XML of `tracecheck validate`
# in make check (check-reports); python3-jsonschema validates its SARIF.

# python3-matplotlib draws the coverage plot of `make fuzz-bench`
# (docs/fuzzing.md); llvm gives it llvm-profdata and llvm-cov.
DEB_PACKAGES += python3-matplotlib

# zip packs the OSS-Fuzz seed corpora of fuzz/build.sh; unzip tests them and
# python3-yaml reads the ClusterFuzzLite files in check-fuzz-ossfuzz
# (docs/fuzzing.md, "OSS-Fuzz and ClusterFuzzLite").
DEB_PACKAGES += zip unzip python3-yaml

# binutils-riscv64-unknown-elf: riscv64-unknown-elf-objdump, which SiFive's
# dqr runs on the ELF it is given; the conformance runner's dqr adapter
# needs it whenever dqr is on PATH (docs/dqr.md).
DEB_PACKAGES += binutils-riscv64-unknown-elf

deps-missing = $(shell for p in $(DEB_PACKAGES); do \
    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done)

.PHONY: deps ensure-deps
deps:
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_PACKAGES)

ensure-deps:
	@missing="$(deps-missing)"; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "make: installing missing packages: $$missing"; \
	        $(MAKE) --no-print-directory deps; \
	    else \
	        echo "make: missing Debian packages: $$missing (run 'make deps' as root)" >&2; exit 1; \
	    fi; \
	fi
