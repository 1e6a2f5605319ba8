# Debian packages (Debian 12). `make deps` installs them; `make check` does it
# by itself when run as root and something is missing.
DEB_PACKAGES := make clang llvm llvm-dev libclang-rt-dev afl++ \
    libcjson-dev libcunit1-dev zlib1g-dev libbz2-dev libzstd-dev libelf-dev \
    gzip bzip2 zstd python3 python3-jsonschema time \
    libyajl-dev jq chromium \
    binutils pkgconf groff-base \
    libxml2-utils
# libelf-dev (elfutils' libelf) reads the instrumentation map of the program an
# XRay trace came from (--binary, parsers/xray/xray_map.c).
# libyajl-dev and jq are for `make bench` only (the JSON layer comparison and
# the DCFG baselines, docs/benchmarks.md); the library does not link yajl.
# chromium (headless) is for make check's test of the HTML conformance matrix
# (check-conformance-html): the page's script is run, not only its markup read.
# binutils (nm, objcopy, readelf), pkgconf and groff-base are for `make
# install` (the static library's symbol table) and check-install (the
# exported symbols, the example built with pkg-config, the man page lint).
# libxml2-utils (xmllint) reads back the JUnit XML of `tracecheck validate`
# in make check (check-reports); python3-jsonschema validates its SARIF.

# debhelper, dpkg-dev, fakeroot and lintian build and check the Debian
# packages of debian/ (make deb, and make check's check-deb:
# tests/deb/deb.mk). fakeroot is dpkg-buildpackage's way to gain root for
# the binary targets; debian/control says Rules-Requires-Root: no, so this
# build runs without it, but dpkg-buildpackage -rfakeroot uses it.
DEB_PACKAGES += debhelper dpkg-dev fakeroot lintian

# python3-matplotlib draws the coverage plot of `make fuzz-bench`
# (docs/fuzzing.md); llvm gives it llvm-profdata and llvm-cov.
DEB_PACKAGES += python3-matplotlib

# patch applies the bugs of bench/bugs to a copy of the parsers (the builds
# of `make fuzz-bench`, and make check's check-fuzz-bench-patches).
DEB_PACKAGES += patch

# zip packs the OSS-Fuzz seed corpora of fuzz/build.sh; unzip tests them and
# python3-yaml reads the ClusterFuzzLite files in check-fuzz-ossfuzz
# (docs/fuzzing.md, "OSS-Fuzz and ClusterFuzzLite").
DEB_PACKAGES += zip unzip python3-yaml

# pre-commit runs the hook of .pre-commit-hooks.yaml for real in make check
# (check-ci-integrations, docs/ci.md).
DEB_PACKAGES += pre-commit

# binutils-riscv64-unknown-elf: riscv64-unknown-elf-objdump, which SiFive's
# dqr runs on the ELF it is given; the conformance runner's dqr adapter
# needs it whenever dqr is on PATH (docs/dqr.md).
DEB_PACKAGES += binutils-riscv64-unknown-elf

# Every clang Debian 12 ships, for make check's real XRay producers
# (tests/xray/producers/producers.mk): each with its XRay runtime (in
# libclang-common-N-dev for 13 and 15, in libclang-rt-N-dev from 14 on, 15
# excepted) and its llvm-xray (llvm-N). 22 comes from bookworm-security. A
# version whose packages the apt sources do not have is skipped, and said so,
# by `make deps` and by make check.
XRAY_CLANG_VERSIONS := 13 14 15 16 19 22
xray-clang-packages = clang-$(1) llvm-$(1) \
    $(if $(filter 13 15,$(1)),libclang-common-$(1)-dev,libclang-rt-$(1)-dev)

# installed PACKAGE...: true when every one is installed.
deps-installed = for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
    grep -q 'install ok installed' || exit 1; done
# not-in-archive PACKAGE...: prints those the apt sources do not have.
deps-not-in-archive = for p in $(1); do apt-cache policy $$p 2>/dev/null | \
    grep -q 'Candidate: [^(]' || echo $$p; done

# A clang version counts as missing when its packages are not all installed
# but the apt sources have them (one that is not in the archive is not
# missing: it is skipped).
deps-missing = $(shell for p in $(DEB_PACKAGES); do \
    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done; \
    $(foreach v,$(XRAY_CLANG_VERSIONS),( $(call deps-installed,$(call xray-clang-packages,$(v))) ) || \
        [ -n "$$( $(call deps-not-in-archive,$(call xray-clang-packages,$(v))) )" ] || echo clang-$(v);))

.PHONY: deps ensure-deps
deps:
	apt-get update
	@clangs=; \
	$(foreach v,$(XRAY_CLANG_VERSIONS),absent=$$( $(call deps-not-in-archive,$(call xray-clang-packages,$(v))) ); \
	if [ -n "$$absent" ]; then \
	    echo "make deps: SKIPPED clang $(v): not in the apt sources:" $$absent \
	         "(apt-cache policy shows no candidate); make check skips it too"; \
	else clangs="$$clangs $(strip $(call xray-clang-packages,$(v)))"; fi;) \
	echo "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_PACKAGES)$$clangs"; \
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(DEB_PACKAGES)$$clangs

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

# parallel (GNU parallel) runs the example of docs/examples/parallel.sh in
# make check (check-shards, docs/distributed.md).
DEB_PACKAGES += parallel
