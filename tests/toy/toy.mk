# What adding a format takes (docs/adding-a-format.md), shown on the toy
# format kept in tests/toy: tests/toy/check-toy-format.
.PHONY: check-toy-format
check-toy-format:
	@tests/toy/check-toy-format $(BUILD)/toy-format

CHECK_TARGETS += check-toy-format
