# The floors run one way (docs/design.md, "Layout"): no include runs back up
# the layers, and nothing format-blind includes a format's folder
# (tests/layers/check-includes). check-layers-selftest shows the check
# failing on an include planted in a scratch copy of a parser.
.PHONY: check-layers check-layers-selftest
check-layers:
	@tests/layers/check-includes

check-layers-selftest:
	@tests/layers/selftest-includes $(BUILD)/layers-selftest

CHECK_TARGETS += check-layers check-layers-selftest
