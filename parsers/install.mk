# Installing tracecheck: the program, libtracecheck (shared and static), the
# public headers, a pkg-config file, the man page and the conformance cases;
# `make uninstall` removes them. docs/library.md says what goes where.
#
#   make install PREFIX=/usr/local [DESTDIR=/tmp/pkg] [LIBDIR=...] [MANDIR=...]
#
# check-install (part of `make check`) installs into $(BUILD)/stage, builds
# docs/examples/producer_test.c against that copy with pkg-config, once on
# the shared and once on the static library, runs both, checks the exported
# symbols, lints the man page and checks that uninstall leaves nothing.

BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

TC_VERSION := $(shell sed -n 's/^\#define TC_VERSION_STRING "\(.*\)"$$/\1/p' include/tracecheck/tracecheck.h)
SO_MAJOR := $(firstword $(subst ., ,$(TC_VERSION)))
SO_REAL := libtracecheck.so.$(TC_VERSION)
SO_NAME := libtracecheck.so.$(SO_MAJOR)
DIST := $(BUILD)/dist

# The public symbols, from parsers/libtracecheck.syms.
$(DIST)/public.syms: parsers/libtracecheck.syms
	@mkdir -p $(@D)
	$(Q)sed -e 's/#.*//' -e '/^[[:space:]]*$$/d' $< > $@

$(DIST)/libtracecheck.ver: $(DIST)/public.syms
	$(Q){ echo 'TRACECHECK_$(SO_MAJOR) {'; echo 'global:'; sed 's/.*/    &;/' $<; \
	      echo 'local: *;'; echo '};'; } > $@

# The shared library exports the public API only (a version script); the
# program, the tests and the fuzzers link the internal static archive.
$(BUILD)/$(SO_REAL): $(LIB_OBJS) $(DIST)/libtracecheck.ver
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SO_NAME) -Wl,--version-script=$(DIST)/libtracecheck.ver \
	    -Wl,--no-undefined -o $@ $(LIB_OBJS) $(LIBS)

$(BUILD)/$(SO_NAME) $(BUILD)/libtracecheck.so: $(BUILD)/$(SO_REAL)
	$(Q)ln -sfn $(SO_REAL) $@

# The installed static library: every object linked into one whose only
# global symbols are the public ones, so that a program linking it cannot
# clash with the internal functions (ovni_emit, dg_put, ...).
$(DIST)/libtracecheck.a: $(LIB_OBJS) $(DIST)/public.syms
	$(call say,AR,$@)
	$(Q)$(CC) -r -nostdlib -o $(DIST)/libtracecheck.o $(LIB_OBJS)
	$(Q)objcopy --keep-global-symbols=$(DIST)/public.syms $(DIST)/libtracecheck.o
	$(Q)rm -f $@ && ar rcs $@ $(DIST)/libtracecheck.o

all: $(DIST)/libtracecheck.a $(BUILD)/$(SO_NAME)

INSTALL_FILES := $(TRACECHECK) $(DIST)/libtracecheck.a $(BUILD)/$(SO_REAL) \
    parsers/tracecheck.pc.in docs/tracecheck.1 $(wildcard include/tracecheck/*.h include/tracecheck/*.def)

# No docs prerequisite: docs/rules/ is committed and not installed, and
# regenerating it here would write into the source tree during make check.
.PHONY: install uninstall
install: $(INSTALL_FILES)
	@case "$(PREFIX)" in /*) ;; *) echo "make install: PREFIX must be an absolute path, not '$(PREFIX)'" >&2; exit 2;; esac
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/tracecheck \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/tracecheck
	install -m 755 $(TRACECHECK) $(DESTDIR)$(BINDIR)/tracecheck
	install -m 644 $(DIST)/libtracecheck.a $(DESTDIR)$(LIBDIR)/libtracecheck.a
	install -m 755 $(BUILD)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_REAL)
	ln -sfn $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_NAME)
	ln -sfn $(SO_NAME) $(DESTDIR)$(LIBDIR)/libtracecheck.so
	install -m 644 include/tracecheck/*.h include/tracecheck/*.def $(DESTDIR)$(INCLUDEDIR)/tracecheck/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(TC_VERSION)|' parsers/tracecheck.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/tracecheck.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/tracecheck.pc
	install -m 644 docs/tracecheck.1 $(DESTDIR)$(MANDIR)/man1/tracecheck.1
	rm -rf $(DESTDIR)$(DATADIR)/tracecheck/cases $(DESTDIR)$(DATADIR)/tracecheck/xfail
	cp -R conformance/cases conformance/xfail $(DESTDIR)$(DATADIR)/tracecheck/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tracecheck $(DESTDIR)$(LIBDIR)/libtracecheck.a \
	    $(DESTDIR)$(LIBDIR)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SO_NAME) \
	    $(DESTDIR)$(LIBDIR)/libtracecheck.so $(DESTDIR)$(INCLUDEDIR)/tracecheck/tracecheck.h \
	    $(DESTDIR)$(INCLUDEDIR)/tracecheck/formats.def \
	    $(DESTDIR)$(PKGCONFIGDIR)/tracecheck.pc $(DESTDIR)$(MANDIR)/man1/tracecheck.1
	rm -rf $(DESTDIR)$(DATADIR)/tracecheck/cases $(DESTDIR)$(DATADIR)/tracecheck/xfail
	-rmdir $(DESTDIR)$(INCLUDEDIR)/tracecheck $(DESTDIR)$(DATADIR)/tracecheck 2>/dev/null

# ---- check-install ----

STAGE := $(abspath $(BUILD))/stage

# The install runs in a sub-make on files this target already built, so it
# rebuilds nothing; everything it writes is under $(BUILD)/stage and
# $(BUILD)/destdir, which no other target touches.
.PHONY: check-install
check-install: $(INSTALL_FILES) docs/examples/producer_test.c tests/producer-test
	@rm -rf $(STAGE) $(BUILD)/destdir
	@$(MAKE) --no-print-directory -s install BUILD=$(BUILD) PREFIX=$(STAGE) >/dev/null
	@# Only the public API is exported, and all of it.
	@nm -D --defined-only $(STAGE)/lib/$(SO_REAL) | awk '$$2 != "A" {print $$3}' | sed 's/@.*//' | sort > $(BUILD)/dist/exported.txt
	@sort $(DIST)/public.syms | diff -u - $(BUILD)/dist/exported.txt || \
	    { echo "check-install: libtracecheck.so exports other symbols than parsers/libtracecheck.syms" >&2; exit 1; }
	@nm -g --defined-only $(STAGE)/lib/libtracecheck.a | awk 'NF == 3 {print $$3}' | sort | \
	    diff -u <(sort $(DIST)/public.syms) - || \
	    { echo "check-install: libtracecheck.a defines other global symbols than the public API" >&2; exit 1; }
	@test "$$(readelf -d $(STAGE)/lib/$(SO_REAL) | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" = $(SO_NAME) || \
	    { echo "check-install: the SONAME is not $(SO_NAME)" >&2; exit 1; }
	@# The example producer test, against the installed copy only.
	$(Q)PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig CC="$(CC)" \
	    tests/producer-test check-install $(STAGE)/lib $(SO_NAME) $(BUILD)/dist
	@# The man page renders without a warning.
	@out=$$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z $(STAGE)/share/man/man1/tracecheck.1 2>&1); \
	    test -z "$$out" || { echo "$$out" >&2; echo "check-install: groff warns on docs/tracecheck.1" >&2; exit 1; }
	@# Every option that a command's --help lists is in the man page.
	@for c in validate dump gen rules conformance 'report merge'; do \
	    for o in $$($(TRACECHECK) $$c --help | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | \
	                grep -o -- '--[a-z-]*' | sort -u); do \
	        grep -qF -- "$${o//-/\\-}" docs/tracecheck.1 || echo "tracecheck $$c $$o"; \
	    done; done > $(DIST)/man-missing.txt
	@test ! -s $(DIST)/man-missing.txt || { cat $(DIST)/man-missing.txt >&2; \
	    echo "check-install: options missing from docs/tracecheck.1" >&2; exit 1; }
	@# DESTDIR, then uninstall: nothing but empty directories is left.
	@$(MAKE) --no-print-directory -s install BUILD=$(BUILD) DESTDIR=$(BUILD)/destdir PREFIX=/opt/tc >/dev/null
	@test -x $(BUILD)/destdir/opt/tc/bin/tracecheck && \
	    grep -qx 'prefix=/opt/tc' $(BUILD)/destdir/opt/tc/lib/pkgconfig/tracecheck.pc
	@$(MAKE) --no-print-directory -s uninstall BUILD=$(BUILD) DESTDIR=$(BUILD)/destdir PREFIX=/opt/tc
	@left=$$(find $(BUILD)/destdir ! -type d); test -z "$$left" || \
	    { echo "check-install: uninstall left: $$left" >&2; exit 1; }
	@echo "install: staged install, pkg-config, shared and static example, man page, uninstall: ok"

CHECK_TARGETS += check-install
