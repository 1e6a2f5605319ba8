# Each generator's checks at the command line are its format's own:
# generators/<folder>/<folder>.mk (valid traces accepted and reproducible,
# every mutator's trace reported with its rule alone, and the format's own
# tools where they are installed).
include $(sort $(wildcard generators/*/*.mk))
