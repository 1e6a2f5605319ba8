# Debian packages: tracecheck, libtracecheck0 and libtracecheck-dev, from
# debian/ (docs/library.md, "Debian packages").
#
#   make deb         the packages, in $(BUILD)/deb/, checked by lintian
#   make check-deb   (part of make check) make deb, then the packages
#                    installed with dpkg into $(BUILD)/deb/root and tested
#
# dpkg-buildpackage builds a copy of the tree in $(BUILD)/deb/tracecheck-VERSION
# (tests/deb/make-deb says why), so nothing is written outside $(BUILD)/deb.
# Without dpkg-buildpackage or lintian, as a user other than root, both print
# SKIPPED and succeed (make-deb exits 77).

DEB_DIR := $(BUILD)/deb

.PHONY: deb check-deb
deb:
	$(Q)tests/deb/make-deb . $(DEB_DIR) || [ $$? = 77 ]

check-deb:
	$(Q)tests/deb/make-deb . $(DEB_DIR) || { s=$$?; [ $$s = 77 ] && \
	    echo "check-deb: SKIPPED because the packages could not be built (above)"; exit $$(( s == 77 ? 0 : s )); }; \
	tests/deb/check-deb $(DEB_DIR)

CHECK_TARGETS += check-deb
